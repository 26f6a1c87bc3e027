/**
 * `read_file`, `write_file`, `edit_file`: whole-file reads and writes inside the workspace, and exact-text
 * edits (the edit must match once, so the model cannot change the wrong place).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Tool } from '../core/tool.js';
import { builtinTool, capOutput, fsError, intArg, stringArg } from './define.js';
import { BuiltinToolError } from './errors.js';
import type { Workspace } from './workspace.js';

type Shared = { workspace: Workspace; maxOutputBytes: number };

/** `read_file { path, offset?, limit? }`: the file's text, lines `offset` (1-based) to `offset+limit-1`. */
export function readFileTool(shared: Shared): Tool {
  return builtinTool(
    {
      name: 'read_file',
      description:
        'Read a text file in the workspace. Optional offset (first line, 1-based) and limit (number of lines).',
      inputSchema: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'File path, relative to the workspace root' },
          offset: { type: 'integer', minimum: 1 },
          limit: { type: 'integer', minimum: 1 },
        },
        required: ['path'],
      },
    },
    shared,
    async (input, { workspace, maxOutputBytes }) => {
      const shown = stringArg('read_file', input, 'path');
      const file = await workspace.resolve('read_file', shown);
      const text = await readFile(file, 'utf8').catch((e: unknown) =>
        Promise.reject(fsError('read_file', shown, e)),
      );
      const offset = intArg('read_file', input, 'offset');
      const limit = intArg('read_file', input, 'limit');
      if (offset === undefined && limit === undefined) return capOutput(text, maxOutputBytes);
      const lines = text.split('\n');
      const start = Math.max((offset ?? 1) - 1, 0);
      return capOutput(
        lines.slice(start, limit === undefined ? undefined : start + limit).join('\n'),
        maxOutputBytes,
      );
    },
  );
}

/** `write_file { path, content }`: creates or replaces the file (and missing parent directories). */
export function writeFileTool(shared: Shared): Tool {
  return builtinTool(
    {
      name: 'write_file',
      description: 'Create or overwrite a text file in the workspace. Parent directories are created.',
      inputSchema: {
        type: 'object',
        properties: { path: { type: 'string' }, content: { type: 'string' } },
        required: ['path', 'content'],
      },
    },
    shared,
    async (input, { workspace }) => {
      const shown = stringArg('write_file', input, 'path');
      const content = stringArg('write_file', input, 'content');
      const file = await workspace.resolve('write_file', shown);
      try {
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, content, 'utf8');
      } catch (error) {
        throw fsError('write_file', shown, error);
      }
      return `wrote ${Buffer.byteLength(content)} bytes to ${await workspace.relative(file)}`;
    },
  );
}

/** `edit_file { path, old_text, new_text, replace_all? }`: replaces exact text that must occur once. */
export function editFileTool(shared: Shared): Tool {
  return builtinTool(
    {
      name: 'edit_file',
      description:
        'Replace exact text in a file. old_text must occur exactly once unless replace_all is true; include ' +
        'enough surrounding text to make it unique.',
      inputSchema: {
        type: 'object',
        properties: {
          path: { type: 'string' },
          old_text: { type: 'string' },
          new_text: { type: 'string' },
          replace_all: { type: 'boolean' },
        },
        required: ['path', 'old_text', 'new_text'],
      },
    },
    shared,
    async (input, { workspace }) => {
      const shown = stringArg('edit_file', input, 'path');
      const oldText = stringArg('edit_file', input, 'old_text');
      const newText = stringArg('edit_file', input, 'new_text');
      if (oldText === '')
        throw new BuiltinToolError('invalid_input', 'edit_file', '"old_text" must not be empty');
      const file = await workspace.resolve('edit_file', shown);
      const text = await readFile(file, 'utf8').catch((e: unknown) =>
        Promise.reject(fsError('edit_file', shown, e)),
      );
      const count = text.split(oldText).length - 1;
      if (count === 0)
        throw new BuiltinToolError('no_match', 'edit_file', `"old_text" does not occur in ${shown}`);
      if (count > 1 && input.replace_all !== true) {
        throw new BuiltinToolError(
          'ambiguous_match',
          'edit_file',
          `"old_text" occurs ${count} times in ${shown}; add context to make it unique, or set replace_all`,
        );
      }
      await writeFile(file, text.split(oldText).join(newText), 'utf8').catch((e: unknown) =>
        Promise.reject(fsError('edit_file', shown, e)),
      );
      return `replaced ${count} occurrence${count === 1 ? '' : 's'} in ${await workspace.relative(file)}`;
    },
  );
}
