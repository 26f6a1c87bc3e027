/**
 * `search { pattern, path?, glob? }`: lines matching a regular expression in the workspace's text files,
 * as `file:line: text`.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Tool } from '../core/tool.js';
import { type ConfinedDir, openDir, PROC_FD } from './confined.js';
import { builtinTool, capOutput, fsError, stringArg } from './define.js';
import { BuiltinToolError } from './errors.js';
import { throwIfAborted } from './read-text.js';
import { type SearchFile, searchInWorker } from './search-worker.js';
import { walk } from './walk.js';
import type { Workspace } from './workspace.js';

/** Most matching lines reported. */
export const MAX_SEARCH_MATCHES = 200;
/** Files larger than this (bytes) are skipped: they are data, not source. */
export const MAX_SEARCH_FILE_BYTES = 1_000_000;

/** Default time one search may take, in ms. */
export const DEFAULT_SEARCH_TIMEOUT_MS = 10_000;

/** Options of {@link searchTool}. */
export interface SearchToolOptions {
  workspace: Workspace;
  maxOutputBytes: number;
  /** Time one search may take, in ms. Default 10,000. */
  timeoutMs?: number;
}

/**
 * Creates `search`. Files are listed here; matching runs in a worker thread (see `search-worker.ts`), so a
 * pattern that backtracks catastrophically is stopped at the timeout or on abort.
 * @throws {BuiltinToolError} `invalid_input` for a pattern that does not parse, `timeout`, `aborted`,
 *   `not_found`, `outside_workspace`.
 */
export function searchTool(options: SearchToolOptions): Tool {
  const timeoutMs = options.timeoutMs ?? DEFAULT_SEARCH_TIMEOUT_MS;
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
    options,
    async (input, { workspace, maxOutputBytes, context }) => {
      const pattern = stringArg('search', input, 'pattern');
      const flags = input.ignore_case === true ? 'i' : '';
      try {
        new RegExp(pattern, flags);
      } catch (error) {
        throw new BuiltinToolError('invalid_input', 'search', `"pattern" is not a valid regular expression`, {
          cause: error,
        });
      }
      const shown = typeof input.path === 'string' && input.path !== '' ? input.path : '.';
      const start = await workspace.resolve('search', shown);
      const info = await stat(start).catch((e: unknown) => Promise.reject(fsError('search', shown, e)));
      const nameFilter = typeof input.name_contains === 'string' ? input.name_contains : '';
      const files: SearchFile[] = [];
      const dir = info.isDirectory() ? await openDir({ toolName: 'search', shown }, start) : undefined;
      try {
        for await (const file of dir ? filesUnder(dir, context.signal) : single(start)) {
          if (nameFilter && !path.basename(file).includes(nameFilter)) continue;
          files.push({ absolute: file, relative: await workspace.relative(file) });
        }
      } finally {
        await dir?.close();
      }
      throwIfAborted('search', context.signal);
      const { matches, stopped } = await searchInWorker(
        {
          source: pattern,
          flags,
          files,
          maxMatches: MAX_SEARCH_MATCHES,
          maxFileBytes: MAX_SEARCH_FILE_BYTES,
          maxLineChars: 300,
          procFd: PROC_FD,
        },
        { timeoutMs, signal: context.signal },
      );
      if (stopped) matches.push(`[stopped after ${MAX_SEARCH_MATCHES} matches]`);
      return matches.length === 0 ? 'no matches' : capOutput(matches.join('\n'), maxOutputBytes);
    },
  );
}

async function* single(file: string): AsyncIterable<string> {
  yield file;
}

async function* filesUnder(dir: ConfinedDir, signal: AbortSignal | undefined): AsyncIterable<string> {
  for await (const entry of walk(dir, 20, signal))
    if (!entry.isDirectory && !entry.isSymlink) yield entry.absolute;
}
