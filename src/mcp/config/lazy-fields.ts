/**
 * The entry fields of a server connected when needed: `"lazy": true` (not started until one of its tools
 * is called or found by tool search), `"toolList"` (its tools as `tools/list` would give them, used until
 * it connects when no tool list from an earlier connect is cached), `"deferLoading"` and per tool
 * `"toolOptions": { "<tool>": { "deferLoading": false } }` (whether a tool is offered to the model only
 * through tool search, or always).
 */
import { isRecord } from '../../core/json.js';
import type { MCPToolDefinition } from '../protocol/types.js';
import { type EntryContext, entryError, readBoolean } from './fields.js';

/** How a server is connected and its tools offered (see the module header). */
export interface MCPLazyFields {
  /** Connect the server on the first call or tool-search hit of one of its tools. Default false. */
  lazy?: boolean;
  /**
   * Offer the server's tools only through tool search (`true`), or always (`false`). Default: true for a
   * `lazy` server, else the agent's rule (search above its `toolSearchThreshold`).
   */
  deferLoading?: boolean;
  /** Per tool, by the server's tool name: `deferLoading` wins over the server's. */
  toolOptions?: Record<string, { deferLoading?: boolean }>;
  /** The server's tools, for a `lazy` server with no cached tool list. */
  toolList?: MCPToolDefinition[];
}

/** Reads the fields of {@link MCPLazyFields}; absent ones stay absent. @throws MCPConfigError */
export function readLazyFields(context: EntryContext, raw: Record<string, unknown>): MCPLazyFields {
  const lazy = readBoolean(context, raw, 'lazy');
  const deferLoading = readBoolean(context, raw, 'deferLoading');
  const toolOptions = readToolOptions(context, raw.toolOptions);
  const toolList = readToolList(context, raw.toolList);
  return {
    ...(lazy !== undefined && { lazy }),
    ...(deferLoading !== undefined && { deferLoading }),
    ...(toolOptions && { toolOptions }),
    ...(toolList && { toolList }),
  };
}

function readToolOptions(context: EntryContext, value: unknown): MCPLazyFields['toolOptions'] {
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw entryError(context, 'toolOptions', 'must be an object of tool names');
  const out: Record<string, { deferLoading?: boolean }> = {};
  for (const [tool, options] of Object.entries(value)) {
    const field = `toolOptions.${tool}`;
    if (!isRecord(options)) throw entryError(context, field, 'must be an object');
    for (const key of Object.keys(options)) {
      if (key !== 'deferLoading') throw entryError(context, field, `has an unknown key "${key}"`);
    }
    const { deferLoading } = options;
    if (deferLoading !== undefined && typeof deferLoading !== 'boolean')
      throw entryError(context, `${field}.deferLoading`, 'must be true or false');
    out[tool] = deferLoading === undefined ? {} : { deferLoading };
  }
  return out;
}

function readToolList(context: EntryContext, value: unknown): MCPToolDefinition[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw entryError(context, 'toolList', 'must be an array of tool definitions');
  return value.map((tool, index) => {
    const field = `toolList[${index}]`;
    if (!isRecord(tool)) throw entryError(context, field, 'must be an object');
    if (typeof tool.name !== 'string' || tool.name === '')
      throw entryError(context, `${field}.name`, 'must be a non-empty string');
    if (tool.description !== undefined && typeof tool.description !== 'string')
      throw entryError(context, `${field}.description`, 'must be a string');
    if (!isRecord(tool.inputSchema))
      throw entryError(context, `${field}.inputSchema`, 'must be a JSON Schema object');
    return tool as MCPToolDefinition;
  });
}
