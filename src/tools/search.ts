/**
 * `search { pattern, path?, glob? }`: lines matching a regular expression in the workspace's text files,
 * as `file:line: text`.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Tool } from '../core/tool.js';
import { builtinTool, capOutput, fsError, stringArg } from './define.js';
import { BuiltinToolError } from './errors.js';
import { walk } from './walk.js';
import type { Workspace } from './workspace.js';

/** Most matching lines reported. */
export const MAX_SEARCH_MATCHES = 200;
/** Files larger than this (bytes) are skipped: they are data, not source. */
export const MAX_SEARCH_FILE_BYTES = 1_000_000;

/** Creates `search`. */
export function searchTool(shared: { workspace: Workspace; maxOutputBytes: number }): Tool {
  return builtinTool(
    {
      name: 'search',
      description:
        'Search text files in the workspace for a regular expression (JavaScript syntax). Optional path ' +
        '(directory or file) and name_contains (only files whose name contains this text).',
      inputSchema: {
        type: 'object',
        properties: {
          pattern: { type: 'string' },
          path: { type: 'string' },
          name_contains: { type: 'string' },
          ignore_case: { type: 'boolean' },
        },
        required: ['pattern'],
      },
    },
    shared,
    async (input, { workspace, maxOutputBytes, context }) => {
      const pattern = stringArg('search', input, 'pattern');
      let regex: RegExp;
      try {
        regex = new RegExp(pattern, input.ignore_case === true ? 'i' : '');
      } catch (error) {
        throw new BuiltinToolError('invalid_input', 'search', `"pattern" is not a valid regular expression`, {
          cause: error,
        });
      }
      const shown = typeof input.path === 'string' && input.path !== '' ? input.path : '.';
      const start = await workspace.resolve('search', shown);
      const info = await stat(start).catch((e: unknown) => Promise.reject(fsError('search', shown, e)));
      const nameFilter = typeof input.name_contains === 'string' ? input.name_contains : '';
      const files = info.isDirectory() ? filesUnder(start, context.signal) : single(start);
      const matches: string[] = [];
      for await (const file of files) {
        if (nameFilter && !path.basename(file).includes(nameFilter)) continue;
        const text = await readText(file);
        if (text === undefined) continue;
        const relative = await workspace.relative(file);
        for (const [i, line] of text.split('\n').entries()) {
          if (!regex.test(line)) continue;
          matches.push(`${relative}:${i + 1}: ${line.length > 300 ? `${line.slice(0, 300)}…` : line}`);
          if (matches.length >= MAX_SEARCH_MATCHES) {
            matches.push(`[stopped after ${MAX_SEARCH_MATCHES} matches]`);
            return capOutput(matches.join('\n'), maxOutputBytes);
          }
        }
      }
      return matches.length === 0 ? 'no matches' : capOutput(matches.join('\n'), maxOutputBytes);
    },
  );
}

async function* single(file: string): AsyncIterable<string> {
  yield file;
}

async function* filesUnder(dir: string, signal: AbortSignal | undefined): AsyncIterable<string> {
  for await (const entry of walk(dir, 20, signal))
    if (!entry.isDirectory && !entry.isSymlink) yield entry.absolute;
}

/** The file's text, or undefined for big or binary files (a NUL byte in the first 8 KiB). */
async function readText(file: string): Promise<string | undefined> {
  try {
    const info = await stat(file);
    if (!info.isFile() || info.size > MAX_SEARCH_FILE_BYTES) return undefined;
    const buffer = await readFile(file);
    if (buffer.subarray(0, 8192).includes(0)) return undefined;
    return buffer.toString('utf8');
  } catch {
    return undefined;
  }
}
