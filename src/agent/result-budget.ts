/**
 * The budget every tool result is held to before it reaches the model. An MCP server may answer with
 * megabytes (a whole file, a base64 image inside `structuredContent`); sent as is, the next model request
 * is refused by every vendor API. Over budget, the model gets the start and the end of the result and a
 * notice in the middle saying how much was cut and how to get the rest.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isRecord, type JsonSchema } from '../core/json.js';
import type { Tool } from '../core/tool.js';
import type { ToolOutputPart } from '../core/tool-output.js';

/**
 * Default {@link AgentOptions.maxToolResultBytes}: 100 000 bytes of UTF-8, about 25 000 tokens (the order
 * of magnitude other agents allow an MCP tool's output).
 */
export const DEFAULT_MAX_TOOL_RESULT_BYTES = 100_000;

/**
 * Runs of base64 (at least {@link MIN_BASE64_CHARS} characters of both cases, possibly wrapped at any
 * column of 64 or more): a model cannot read an image or a file out of base64 text, and it costs one token per 3 or 4
 * characters.
 */
const BASE64_RUN = /[A-Za-z0-9+/]{64,}(?:\r?\n[A-Za-z0-9+/]{64,})*(?:\r?\n?[A-Za-z0-9+/]{1,63})?={0,2}/g;
const MIN_BASE64_CHARS = 1024;

/** Argument names tools use to read a part of something (lines, bytes, pages, cursors). */
const PART_ARGUMENTS = new Set([
  'offset',
  'limit',
  'head',
  'tail',
  'cursor',
  'page',
  'pagesize',
  'page_size',
  'perpage',
  'per_page',
  'start',
  'end',
  'startline',
  'start_line',
  'endline',
  'end_line',
  'line',
  'lines',
  'from',
  'to',
  'skip',
  'take',
  'range',
  'length',
  'maxlength',
  'max_length',
  'maxbytes',
  'max_bytes',
  'maxlines',
  'max_lines',
  'maxresults',
  'max_results',
]);

/** Share of the kept bytes that go to the start of the result; the rest keeps its end. */
const HEAD_SHARE = 0.8;

/** Replaces every long base64 run in `text` with `[base64 data omitted: <size>]`. */
export function omitBase64(text: string): string {
  if (text.length < MIN_BASE64_CHARS) return text;
  return text.replace(BASE64_RUN, (run) => {
    // Mixed case: base64 of real data has both; a long run of one letter or of hex digits is not base64.
    if (run.length < MIN_BASE64_CHARS || !/[a-z]/.test(run) || !/[A-Z]/.test(run)) return run;
    const chars = run.replace(/[\s=]/g, '').length;
    return `[base64 data omitted: ${Math.floor((chars * 3) / 4).toLocaleString('en-US')} bytes]`;
  });
}

/**
 * What to tell the model about reading the cut part, from the tool's input schema: its arguments that
 * select a part (`offset`, `limit`, `head`, `tail`, `cursor`, `page`, …), if it has any.
 */
export function readMoreHint(modelName: string, schema: JsonSchema, maxBytes: number): string {
  const over = `The result is over the ${maxBytes.toLocaleString('en-US')} byte budget for tool results.`;
  const properties = isRecord(schema.properties) ? Object.keys(schema.properties) : [];
  const parts = properties.filter((name) => PART_ARGUMENTS.has(name.toLowerCase()));
  if (parts.length > 0) {
    return `${over} To read the cut part, call ${modelName} again with its ${parts.map((p) => `"${p}"`).join(', ')} argument${parts.length > 1 ? 's' : ''} to ask for a part.`;
  }
  return `${over} ${modelName} has no argument to ask for a part; narrow the request if you need the cut part.`;
}

/**
 * `text` within `maxBytes` bytes of UTF-8: base64 runs omitted first (see {@link omitBase64}); then, when
 * still over, the start and the end kept (cut at line ends when one is near) and a notice in between:
 * `[agentwire cut 6,300,000 of 6,400,000 bytes here (lines 1,201 to 98,000 of 100,000). <hint>]`.
 * The notice counts towards the budget; a budget too small for it gets the notice alone.
 */
export function fitText(text: string, maxBytes: number, hint: string): string {
  const clean = omitBase64(text);
  if (clean.length <= maxBytes / 3 || Buffer.byteLength(clean) <= maxBytes) return clean;
  const bytes = Buffer.from(clean, 'utf8');
  const total = bytes.length;
  const totalLines = lineAt(bytes, total - 1);
  // The notice is measured with the widest numbers it can hold, so the kept parts never push it over.
  // Two more bytes: the line breaks around it.
  const reserve = Buffer.byteLength(notice(total, total, totalLines, totalLines, totalLines, hint)) + 2;
  const room = Math.max(0, maxBytes - reserve);
  const headEnd = headCut(bytes, Math.floor(room * HEAD_SHARE));
  const tailStart = tailCut(bytes, total - (room - headEnd), headEnd);
  const firstCutLine = lineAt(bytes, headEnd);
  const lastCutLine = Math.max(firstCutLine, lineAt(bytes, tailStart - 1));
  const message = notice(tailStart - headEnd, total, firstCutLine, lastCutLine, totalLines, hint);
  const head = bytes.toString('utf8', 0, headEnd);
  const tail = bytes.toString('utf8', tailStart, total);
  return `${head}${head === '' || head.endsWith('\n') ? '' : '\n'}${message}\n${tail}`;
}

function notice(cut: number, total: number, from: number, to: number, lines: number, hint: string): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const where = lines > 1 ? ` (lines ${n(from)} to ${n(to)} of ${n(lines)})` : '';
  return `[agentwire cut ${n(cut)} of ${n(total)} bytes here${where}. ${hint}]`;
}

/** Where the kept start ends: at most `limit`, on a character boundary, after a newline when one is near. */
function headCut(bytes: Buffer, limit: number): number {
  let end = Math.max(0, Math.min(limit, bytes.length));
  while (end > 0 && end < bytes.length && isContinuation(bytes[end]!)) end -= 1;
  const newline = bytes.lastIndexOf(0x0a, end - 1);
  return newline >= 0 && newline + 1 >= end * 0.75 ? newline + 1 : end;
}

/** Where the kept end starts: at least `limit` (and after `floor`), on a character boundary, after a newline when one is near. */
function tailCut(bytes: Buffer, limit: number, floor: number): number {
  let start = Math.min(bytes.length, Math.max(limit, floor));
  while (start < bytes.length && isContinuation(bytes[start]!)) start += 1;
  const kept = bytes.length - start;
  const newline = bytes.indexOf(0x0a, start);
  return newline >= 0 && bytes.length - (newline + 1) >= kept * 0.75 ? newline + 1 : start;
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

function countNewlines(bytes: Buffer, from: number, to: number): number {
  let count = 0;
  for (let at = bytes.indexOf(0x0a, from); at >= 0 && at < to; at = bytes.indexOf(0x0a, at + 1)) count += 1;
  return count;
}

/** The 1-based number of the line that holds byte `at` (a newline belongs to the line it ends). */
function lineAt(bytes: Buffer, at: number): number {
  return countNewlines(bytes, 0, Math.max(0, at)) + 1;
}

/**
 * The parts of a result with media held to the same text budget: its text parts as they are (long base64
 * omitted) when together within `maxBytes`, else `fitted` (the whole result fitted as text, see
 * {@link fitText}) followed by the media. Media are bounded by the model's adapter, not by this budget.
 */
export function fitParts(
  parts: readonly ToolOutputPart[],
  fitted: string,
  maxBytes: number,
): ToolOutputPart[] {
  const texts = parts.flatMap((p) => (p.type === 'text' ? [omitBase64(p.text)] : []));
  if (Buffer.byteLength(texts.join('\n')) <= maxBytes) {
    return parts.map((p) => (p.type === 'text' ? { type: 'text', text: omitBase64(p.text) } : p));
  }
  const media = parts.filter((p) => p.type !== 'text');
  return [{ type: 'text', text: fitted }, ...media];
}

/**
 * The `_meta` keys of a tool's definition that say how large its results may be, in characters:
 * `anthropic/maxResultSizeChars` (Claude Code's), the one servers use today. Read from the `tools/list`
 * entry (an `MCPTool`'s `definition`, or the one an `MCPPrefixedTool` or a lazy server's tool carries).
 */
export const RESULT_SIZE_HINT_KEYS: readonly string[] = ['anthropic/maxResultSizeChars'];

/** The tool's size hint (a positive whole number of characters), if its definition has one. */
export function resultSizeHint(tool: object): number | undefined {
  type WithDefinition = { definition?: { _meta?: unknown }; tool?: WithDefinition };
  const meta = (tool as WithDefinition).definition?._meta ?? (tool as WithDefinition).tool?.definition?._meta;
  if (!isRecord(meta)) return undefined;
  for (const key of RESULT_SIZE_HINT_KEYS) {
    const value = meta[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 1) return Math.floor(value);
  }
  return undefined;
}

/** The budget of tool results (see `AgentOptions.maxToolResultBytes` and `resultSpillDir`). */
export interface ResultBudget {
  maxBytes: number;
  /** By model-facing name or the tool's own name (the first that matches wins). */
  byTool: Readonly<Record<string, number>>;
  /** Where a result over budget is written whole (`AgentOptions.resultSpillDir`); none: it is only cut. */
  spillDir?: string | undefined;
}

/**
 * The budget of one call, in bytes: the host's budget for the tool by name (`maxToolResultBytesByTool`,
 * model-facing name first) when it has one; else the budget of the tool's server (`addMcpServer(client, {
 * maxToolResultBytes })`) or the agent's, lowered to the tool's size hint ({@link resultSizeHint}, a
 * character count taken as bytes) when that is smaller. A hint never raises a budget: the host's is the
 * ceiling.
 */
export function budgetOf(
  budget: ResultBudget,
  modelName: string,
  entry: { tool: Tool; maxResultBytes?: number } | undefined,
): number {
  const byTool = new Map(Object.entries(budget.byTool));
  const named = byTool.get(modelName) ?? (entry === undefined ? undefined : byTool.get(entry.tool.name));
  if (named !== undefined) return named;
  const ceiling = entry?.maxResultBytes ?? budget.maxBytes;
  const hint = entry === undefined ? undefined : resultSizeHint(entry.tool);
  return hint === undefined ? ceiling : Math.min(hint, ceiling);
}

/**
 * `raw` (one tool result as text) held to `maxBytes` ({@link fitText}). Over budget with a `spillDir`, the
 * whole of `raw` is first written to a new file there, `<tool>-<call id>.txt` (characters outside
 * `[A-Za-z0-9_.-]` become `_`; `-2`, `-3`, … added when the name is taken), and the model gets its start,
 * its end, and between them where the whole is and its size:
 * `[agentwire cut 1,180,000 of 1,200,000 bytes here (lines 201 to 11,800 of 12,000). The whole result
 * (1,200,000 bytes) is in the file /spill/read_file-call_1.txt: read the cut part there.]`.
 * When the file cannot be written, the result is cut as without a `spillDir`, and the notice says why.
 */
export async function fitResult(
  raw: string,
  options: {
    modelName: string;
    toolCallId: string;
    schema: JsonSchema;
    maxBytes: number;
    spillDir?: string | undefined;
  },
): Promise<string> {
  const { maxBytes, spillDir, modelName } = options;
  const clean = omitBase64(raw);
  const hint = readMoreHint(modelName, options.schema, maxBytes);
  if (spillDir === undefined || clean.length <= maxBytes / 3 || Buffer.byteLength(clean) <= maxBytes) {
    return fitText(clean, maxBytes, hint);
  }
  try {
    const file = await spill(spillDir, `${modelName}-${options.toolCallId}`, raw);
    const size = Buffer.byteLength(raw).toLocaleString('en-US');
    return fitText(
      clean,
      maxBytes,
      `The whole result (${size} bytes) is in the file ${file}: read the cut part there.`,
    );
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return fitText(clean, maxBytes, `${hint} (Writing the whole result to ${spillDir} failed: ${why}.)`);
  }
}

/** Writes `text` to a new file `<base>.txt` (or `<base>-2.txt`, …) in `dir`, made if missing; its path. */
async function spill(dir: string, base: string, text: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const safe = base.replace(/[^A-Za-z0-9_.-]/g, '_');
  for (let n = 1; ; n += 1) {
    const file = path.join(dir, n === 1 ? `${safe}.txt` : `${safe}-${n}.txt`);
    try {
      await writeFile(file, text, { flag: 'wx' });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
