/**
 * `read_file`, `write_file`, `edit_file`: whole-file reads and writes inside the workspace, and exact-text
 * edits (the edit must match once, so the model cannot change the wrong place).
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Tool } from '../core/tool.js';
import { builtinTool, capBytes, fsError, intArg, stringArg } from './define.js';
import { BuiltinToolError } from './errors.js';
import { notRegular, openRegularFile, readHead, readLineRange } from './read-text.js';
import type { Workspace } from './workspace.js';

type Shared = { workspace: Workspace; maxOutputBytes: number };

/** Largest file `edit_file` reads, in bytes: it holds the whole text (twice) in memory. */
export const MAX_EDIT_FILE_BYTES = 10_000_000;

/**
 * `read_file { path, offset?, limit? }`: the file's text, or lines `offset` (1-based) to `offset+limit-1`.
 * At most `maxOutputBytes` are read, and a cut result says so: with the file's size in bytes for a whole
 * file, with the first line not shown in full for a line range. Only regular files are read.
 * @throws {BuiltinToolError} `invalid_input` for a directory, FIFO or device; `aborted` when the call's
 *   signal fires mid-read; `not_found`, `outside_workspace`, `io`.
 */
export function readFileTool(shared: Shared): Tool {
  return builtinTool(
    {
      name: 'read_file',
      description:
        'Read a text file in the workspace. Optional offset (first line, 1-based) and limit (number of lines). ' +
        'Long output is cut and says so; read on with offset.',
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
    async (input, { workspace, maxOutputBytes, context }) => {
      const shown = stringArg('read_file', input, 'path');
      const offset = intArg('read_file', input, 'offset');
      const limit = intArg('read_file', input, 'limit');
      const file = await workspace.resolve('read_file', shown);
      const { handle, size } = await openRegularFile('read_file', file, shown);
      try {
        if (offset === undefined && limit === undefined) {
          const head = await readHead('read_file', handle, maxOutputBytes, context.signal);
          return capBytes(head, maxOutputBytes, Math.max(size, head.length));
        }
        const start = Math.max((offset ?? 1) - 1, 0);
        const end = limit === undefined ? Number.POSITIVE_INFINITY : start + limit;
        const range = await readLineRange(
          'read_file',
          handle,
          { start, end, maxBytes: maxOutputBytes },
          context.signal,
        );
        if (range.cutAtLine === undefined) return range.text;
        return `${range.text}\n[output truncated at ${maxOutputBytes} bytes; line ${range.cutAtLine} is not shown in full]`;
      } catch (error) {
        throw fsError('read_file', shown, error);
      } finally {
        await handle.close();
      }
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
      // Writing to a FIFO would wait for a reader forever; a directory or device is never what was meant.
      const existing = await stat(file).catch(() => undefined);
      if (existing !== undefined && !existing.isFile()) throw notRegular('write_file', shown);
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
    async (input, { workspace, context }) => {
      const shown = stringArg('edit_file', input, 'path');
      const oldText = stringArg('edit_file', input, 'old_text');
      const newText = stringArg('edit_file', input, 'new_text');
      if (oldText === '')
        throw new BuiltinToolError('invalid_input', 'edit_file', '"old_text" must not be empty');
      const file = await workspace.resolve('edit_file', shown);
      const text = await readWhole(file, shown, context.signal);
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

/**
 * The whole text of a regular file for `edit_file`, which must see all of it to edit it.
 * @throws {BuiltinToolError} `invalid_input` for a non-regular file or one over 10 MB (10 000 000 bytes).
 */
async function readWhole(file: string, shown: string, signal: AbortSignal | undefined): Promise<string> {
  const { handle, size } = await openRegularFile('edit_file', file, shown);
  try {
    if (size > MAX_EDIT_FILE_BYTES) {
      throw new BuiltinToolError(
        'invalid_input',
        'edit_file',
        `"${shown}" is ${size} bytes; edit_file edits files of up to ${MAX_EDIT_FILE_BYTES} bytes`,
      );
    }
    // One byte more than allowed tells a file that grew since `stat` from one that did not.
    const bytes = await readHead('edit_file', handle, MAX_EDIT_FILE_BYTES + 1, signal);
    if (bytes.length > MAX_EDIT_FILE_BYTES) {
      throw new BuiltinToolError(
        'invalid_input',
        'edit_file',
        `"${shown}" grew past ${MAX_EDIT_FILE_BYTES} bytes`,
      );
    }
    return bytes.toString('utf8');
  } catch (error) {
    throw fsError('edit_file', shown, error);
  } finally {
    await handle.close();
  }
}
