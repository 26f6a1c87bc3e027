/**
 * What one request offers the model: every tool, or — above the agent's `toolSearchThreshold` — a
 * `search_tools` tool and the tools the model loaded with it. Hundreds of MCP tools (11 servers easily give
 * 175) cost every request their definitions and exceed vendors' limits (OpenAI: 128 tools); with search,
 * a request carries one small definition plus what the model chose. A provider's bound on the tool count
 * is held in both modes, with a warning naming what was left out.
 */
import type { Tool } from '../core/tool.js';
import type { Model, ModelToolSpec } from '../providers/model.js';
import { DEFAULT_TOOL_SEARCH_THRESHOLD } from './defaults.js';
import { ToolIndex } from './tool-index.js';
import type { ToolEntry, ToolTable, ToolWarning } from './tool-registry.js';

export { DEFAULT_TOOL_SEARCH_THRESHOLD };

/** The search tool's name (another name is taken when a tool of the agent already has it). */
export const SEARCH_TOOLS_NAME = 'search_tools';

/** Matches `search_tools` loads when the model does not say (`limit`), and the most it may ask for. */
const DEFAULT_MATCHES = 5;
const MAX_MATCHES = 20;
const MAX_DESCRIPTION_CHARS = 300;

/** How the agent offers its tools. */
export interface ToolOfferSettings {
  /** Search when the tools are more than this. */
  threshold: number;
  /** Most tools one request may carry (the provider's bound or the agent's option); undefined: no bound. */
  maxTools: number | undefined;
}

/**
 * The tools the model loaded, oldest first, by model-facing name; kept across turns and runs (the agent's
 * `reset()` clears it), so a loaded tool stays offered while the conversation goes on.
 */
export class ToolSearchState {
  readonly loaded: string[] = [];
  readonly index = new ToolIndex();

  clear(): void {
    this.loaded.length = 0;
  }
}

/** One request's tools: the specs sent, the table calls are looked up in, and what to warn about. */
export interface ToolOffer {
  specs: ModelToolSpec[];
  table: ToolTable;
  warnings: ToolWarning[];
}

/** Decides what `table` (every usable tool of this turn) offers `model` in one request. */
export function offerTools(
  table: ToolTable,
  model: Model,
  settings: ToolOfferSettings,
  state: ToolSearchState,
): ToolOffer {
  const all = [...table.byModelName.values()];
  const under = all.length <= settings.threshold;
  const deferred = all.filter((e) => deferLoadingOf(e.tool) === true);
  if (under && deferred.length === 0) return offerAll(table, all, model, settings.maxTools);
  // Always offered: tools that say `deferLoading: false`, and under the threshold every tool that does not
  // ask to be deferred. The others are found with the search tool.
  const pinned = all.filter(
    (e) => deferLoadingOf(e.tool) === false || (under && deferLoadingOf(e.tool) !== true),
  );
  const entries = all.filter((e) => !pinned.includes(e));
  const name = [SEARCH_TOOLS_NAME, `agent_${SEARCH_TOOLS_NAME}`, `agent__${SEARCH_TOOLS_NAME}`].find(
    (n) => !table.byModelName.has(n),
  ) as string;
  const capacity = Math.max(0, (settings.maxTools ?? Number.POSITIVE_INFINITY) - 1 - pinned.length);
  // Tools that went away (a server's list changed, a server removed) are no longer loaded.
  const live = state.loaded.filter((n) => table.byModelName.has(n));
  state.loaded.splice(0, state.loaded.length, ...live.slice(Math.max(0, live.length - capacity)));
  const tool = searchTool(name, entries, state, capacity);
  const spec: ModelToolSpec = {
    name,
    description: tool.description,
    inputSchema: model.normalizeToolSchema(tool.inputSchema),
  };
  const byModelName = new Map(table.byModelName);
  byModelName.set(name, { tool, source: 'agent', modelName: name, spec });
  const loaded = state.loaded.filter((n) => !pinned.some((e) => e.modelName === n));
  const specs = [
    spec,
    ...pinned.map((e) => e.spec),
    ...loaded.map((n) => (table.byModelName.get(n) as ToolEntry).spec),
  ];
  const why = under
    ? `${deferred.length} tools ask to be loaded when needed (deferLoading)`
    : `${all.length} tools are more than toolSearchThreshold (${settings.threshold})`;
  const warning: ToolWarning = {
    kind: 'deferred',
    tool: name,
    message: `${why}: the model is offered ${name} and loads the tools it needs (deferred: ${countBySource(entries)})`,
  };
  return { specs, table: { ...table, byModelName, specs }, warnings: [warning] };
}

function offerAll(
  table: ToolTable,
  entries: ToolEntry[],
  model: Model,
  maxTools: number | undefined,
): ToolOffer {
  if (maxTools === undefined || entries.length <= maxTools) {
    return { specs: table.specs, table, warnings: [] };
  }
  const kept = entries.slice(0, maxTools);
  const dropped = entries.slice(maxTools).map((e) => e.modelName);
  const specs = kept.map((e) => e.spec);
  const byModelName = new Map(kept.map((e) => [e.modelName, e]));
  const warning: ToolWarning = {
    kind: 'limit',
    tool: dropped[0] as string,
    tools: dropped,
    message:
      `${dropped.length} of ${entries.length} tools not offered: ${model.provider} takes at most ${maxTools} ` +
      `tools per request (maxToolsPerRequest; a lower toolSearchThreshold lets the model search them all); ` +
      `left out: ${dropped.join(', ')}`,
  };
  return { specs, table: { ...table, byModelName, specs }, warnings: [warning] };
}

/** Sources named in the search tool's description and the warning; more are counted. */
const MAX_SOURCES_NAMED = 8;

/** `everything (13), fs (14)`: how many tools each source has, in the order they come; the first few. */
function countBySource(entries: readonly ToolEntry[]): string {
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.source, (counts.get(e.source) ?? 0) + 1);
  const named = [...counts].slice(0, MAX_SOURCES_NAMED).map(([source, n]) => `${source} (${n})`);
  const more = counts.size - named.length;
  return more > 0 ? `${named.join(', ')} and ${more} more sources` : named.join(', ');
}

/** The `search_tools` tool of one turn, over that turn's `entries`. */
function searchTool(
  name: string,
  entries: readonly ToolEntry[],
  state: ToolSearchState,
  capacity: number,
): Tool {
  return {
    name,
    source: 'agent',
    description:
      `Finds tools by what you want to do, among ${entries.length} tools (from ${countBySource(entries)}), ` +
      `and loads the best matches: they can be called from your next step on. Search again whenever you ` +
      `need a tool you do not have yet.`,
    inputSchema: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description: 'What the tool should do, or its name, in a few words (e.g. "read a file").',
        },
        limit: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_MATCHES,
          description: `How many matching tools to load. Default ${DEFAULT_MATCHES}.`,
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    async execute(input) {
      const query = typeof input.query === 'string' ? input.query : '';
      const asked = typeof input.limit === 'number' ? Math.floor(input.limit) : DEFAULT_MATCHES;
      const limit = Math.min(Math.max(1, asked), MAX_MATCHES, Math.max(1, capacity));
      const matches = await state.index.search(entries, query, limit);
      if (matches.length === 0 || capacity === 0) {
        return `No tool matches "${query}". Try other words; the tools come from ${countBySource(entries)}.`;
      }
      // A tool of a server connected when needed starts its server on a hit, so that the next step offers
      // the tool as the running server defines it. A server that cannot start says so when the tool is called.
      await Promise.all(matches.map((m) => prepareTool(m.entry.tool).catch(() => undefined)));
      const evicted = load(
        state,
        matches.map((m) => m.entry.modelName),
        capacity,
      );
      const lines = matches.map((m) => describe(m.entry));
      const more =
        evicted.length === 0
          ? ''
          : `\nUnloaded to stay within ${capacity + 1} tools per request (search again to get them back): ${evicted.join(', ')}`;
      return `Loaded ${matches.length} tools; call them by name from your next step on:\n${lines.join('\n')}${more}`;
    },
  };
}

/** Adds `names` as the most recently loaded; returns the oldest ones pushed out beyond `capacity`. */
function load(state: ToolSearchState, names: readonly string[], capacity: number): string[] {
  const loaded = state.loaded.filter((n) => !names.includes(n));
  loaded.push(...names);
  const evicted = loaded.splice(0, Math.max(0, loaded.length - capacity));
  state.loaded.splice(0, state.loaded.length, ...loaded);
  return evicted;
}

/** `- name: description (parameters: a, b; required: a)`, the description's first line, bounded. */
function describe(entry: ToolEntry): string {
  const line = entry.tool.description.split('\n')[0]?.trim() ?? '';
  const text = line.length > MAX_DESCRIPTION_CHARS ? `${line.slice(0, MAX_DESCRIPTION_CHARS)}…` : line;
  const schema = entry.tool.inputSchema as { properties?: object; required?: unknown };
  const params = Object.keys(schema.properties ?? {});
  const required = Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [];
  const signature =
    params.length === 0
      ? ' (no parameters)'
      : ` (parameters: ${params.join(', ')}${required.length ? `; required: ${required.join(', ')}` : ''})`;
  return `- ${entry.modelName}${text ? `: ${text}` : ''}${signature}`;
}

/** A tool's `deferLoading` (an `MCPLazyTool`'s, or that of the one an `MCPPrefixedTool` wraps). */
function deferLoadingOf(tool: Tool): boolean | undefined {
  type Deferring = { deferLoading?: unknown; tool?: { deferLoading?: unknown } };
  const value = (tool as Deferring).deferLoading ?? (tool as Deferring).tool?.deferLoading;
  return typeof value === 'boolean' ? value : undefined;
}

/** Connects the server of a tool that is not running yet (`MCPLazyTool.prepare`); others resolve at once. */
async function prepareTool(tool: Tool): Promise<void> {
  type Preparing = { prepare?: () => Promise<void>; tool?: Preparing };
  const own = tool as Preparing;
  const target = own.prepare ? own : own.tool;
  await target?.prepare?.();
}
