/**
 * The human-readable tool list of `agentwire tools`: per tool its name and a one-line description, then
 * one line per parameter with its name, type and whether it is required.
 *
 *     echo: Echoes back the input string
 *       message (string, required): Message to echo
 */
import { isRecord } from '../core/json.js';
import type { MCPToolDefinition } from '../mcp/index.js';
import { type Paint, PLAIN } from './colors.js';

/** Longest description kept on a line, in characters; longer ones end at a sentence or with `…`. */
export const DESCRIPTION_WIDTH = 100;

/**
 * The text of `agentwire tools`, newline-terminated; `(no tools)` for a server without tools.
 * @param colors paints each tool's name (default: no colour).
 */
export function formatToolList(tools: readonly MCPToolDefinition[], colors: Paint = PLAIN): string {
  if (tools.length === 0) return '(no tools)\n';
  return tools.map((tool) => formatTool(tool, colors)).join('');
}

function formatTool(tool: MCPToolDefinition, colors: Paint): string {
  const description = oneLine(tool.description ?? '');
  const name = colors.name(tool.name);
  const lines = [description === '' ? name : `${name}: ${description}`];
  const properties = isRecord(tool.inputSchema.properties) ? tool.inputSchema.properties : {};
  const required = new Set(Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required : []);
  for (const [name, schema] of Object.entries(properties)) {
    const flags = [schemaType(schema), ...(required.has(name) ? ['required'] : [])].join(', ');
    const about =
      isRecord(schema) && typeof schema.description === 'string' ? oneLine(schema.description) : '';
    lines.push(`  ${name} (${flags})${about === '' ? '' : `: ${about}`}`);
  }
  if (Object.keys(properties).length === 0) lines.push('  (no parameters)');
  return `${lines.join('\n')}\n`;
}

/**
 * A description on one line: its first line, cut at the end of the first sentence when that line is longer
 * than {@link DESCRIPTION_WIDTH}, else at the width with `…`.
 */
export function oneLine(text: string): string {
  const first = (text.trim().split('\n')[0] ?? '').trim();
  if (first.length <= DESCRIPTION_WIDTH) return first;
  const sentenceEnd = first.indexOf('. ');
  if (sentenceEnd > 0 && sentenceEnd < DESCRIPTION_WIDTH) return first.slice(0, sentenceEnd + 1);
  return `${first.slice(0, DESCRIPTION_WIDTH - 1).trimEnd()}…`;
}

/** A short type for a JSON Schema: `string`, `number[]`, `"a" | "b"`, `string | null`, a `$ref` name, or `any`. */
export function schemaType(schema: unknown): string {
  if (!isRecord(schema)) return 'any';
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if ('const' in schema) return JSON.stringify(schema.const);
  const { type } = schema;
  if (type === 'array') return `${wrap(schemaType(schema.items ?? {}))}[]`;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.filter((t) => typeof t === 'string').join(' | ');
  const union = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : undefined;
  if (union) return union.map(schemaType).join(' | ');
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() ?? 'any';
  return 'any';
}

function wrap(type: string): string {
  return type.includes(' | ') ? `(${type})` : type;
}
