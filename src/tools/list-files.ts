/**
 * `list_files { path?, depth? }`: the workspace's files and directories (directories end in `/`).
 */
import { stat } from 'node:fs/promises';
import type { Tool } from '../core/tool.js';
import { openDir } from './confined.js';
import { builtinTool, capOutput, fsError, intArg } from './define.js';
import { BuiltinToolError } from './errors.js';
import { walk } from './walk.js';
import type { Workspace } from './workspace.js';

/** Most entries listed; the rest are counted. */
export const MAX_LIST_ENTRIES = 1_000;

/** Creates `list_files`. Default depth 2, at most 10. */
export function listFilesTool(shared: { workspace: Workspace; maxOutputBytes: number }): Tool {
  return builtinTool(
    {
      name: 'list_files',
      description:
        'List files and directories under a path in the workspace (default: the root). Directories end in "/". ' +
        'depth: how many levels to descend (default 2, max 10).',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string' }, depth: { type: 'integer', minimum: 1, maximum: 10 } },
      },
    },
    shared,
    async (input, { workspace, maxOutputBytes, context }) => {
      const shown = typeof input.path === 'string' && input.path !== '' ? input.path : '.';
      const dir = await workspace.resolve('list_files', shown);
      const info = await stat(dir).catch((e: unknown) => Promise.reject(fsError('list_files', shown, e)));
      if (!info.isDirectory())
        throw new BuiltinToolError('invalid_input', 'list_files', `"${shown}" is not a directory`);
      const depth = Math.min(intArg('list_files', input, 'depth') ?? 2, 10);
      const lines: string[] = [];
      let more = 0;
      const opened = await openDir({ toolName: 'list_files', shown }, dir);
      try {
        for await (const entry of walk(opened, depth, context.signal)) {
          if (lines.length >= MAX_LIST_ENTRIES) {
            more += 1;
            continue;
          }
          lines.push(`${await workspace.relative(entry.absolute)}${entry.isDirectory ? '/' : ''}`);
        }
      } finally {
        await opened.close();
      }
      if (more > 0) lines.push(`[${more} more entries not listed]`);
      return capOutput(lines.length === 0 ? '(empty)' : lines.join('\n'), maxOutputBytes);
    },
  );
}
