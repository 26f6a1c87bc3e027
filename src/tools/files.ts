/**
 * `read_file`, `write_file`, `edit_file`: whole-file reads and writes inside the workspace, and exact-text
 * edits (the edit must match once, so the model cannot change the wrong place).
 */
import type { FileHandle } from 'node:fs/promises';
import type { Tool } from '../core/tool.js';
import { reopenForWriting } from './confined.js';
import { builtinTool, capBytes, fsError, intArg, stringArg } from './define.js';
import { BuiltinToolError } from './errors.js';
import { openRegularFile, readHead, readLineRange } from './read-text.js';
import type { Workspace } from './workspace.js';
import { rewrite, tooLarge, writeConfined } from './write-text.js';

/** What the file tools share: the workspace and the caps, in bytes. */
type Shared = { workspace: Workspace; maxOutputBytes: number; maxWriteBytes: number };

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

/**
 * `write_file { path, content }`: creates or replaces the file (and missing parent directories), never
 * through a symlink swapped in on the path after it was checked.
 * @throws {BuiltinToolError} `invalid_input` with reason `too_large` for content over `maxWriteBytes`
 *   (UTF-8), or for a directory, FIFO or device; `outside_workspace`, `io`.
 */
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
      const who = { toolName: 'write_file', shown };
      const file = await workspace.resolve('write_file', shown);
      // Counted before encoding: a string of hundreds of MiB is refused without a copy of it.
      const bytes = Buffer.byteLength(content);
      if (bytes > shared.maxWriteBytes) throw tooLarge(who, bytes, shared.maxWriteBytes);
      await writeConfined(who, workspace, file, Buffer.from(content, 'utf8'));
      return `wrote ${bytes} bytes to ${await workspace.relative(file)}`;
    },
  );
}

/**
 * `edit_file { path, old_text, new_text, replace_all? }`: replaces exact text that must occur once. The
 * file is read and rewritten through descriptors on the one file that was checked.
 * @throws {BuiltinToolError} `no_match`, `ambiguous_match`; `invalid_input` for a file over
 *   {@link MAX_EDIT_FILE_BYTES} or (reason `too_large`) a result over `maxWriteBytes`; `outside_workspace`,
 *   `not_found`, `io`.
 */
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
      const { handle, text } = await readWhole(file, shown, context.signal);
      try {
        const count = await replaceIn(
          handle,
          text,
          { file, shown, oldText, newText },
          input.replace_all === true,
          shared,
        );
        return `replaced ${count} occurrence${count === 1 ? '' : 's'} in ${await workspace.relative(file)}`;
      } finally {
        await handle.close();
      }
    },
  );
}

/** Edits the text read from `handle`'s file and writes the result to that same file; returns the count. */
async function replaceIn(
  handle: FileHandle,
  text: string,
  edit: { file: string; shown: string; oldText: string; newText: string },
  replaceAll: boolean,
  shared: Shared,
): Promise<number> {
  const { file, shown, oldText, newText } = edit;
  const count = text.split(oldText).length - 1;
  if (count === 0)
    throw new BuiltinToolError('no_match', 'edit_file', `"old_text" does not occur in ${shown}`);
  if (count > 1 && !replaceAll) {
    throw new BuiltinToolError(
      'ambiguous_match',
      'edit_file',
      `"old_text" occurs ${count} times in ${shown}; add context to make it unique, or set replace_all`,
    );
  }
  const who = { toolName: 'edit_file', shown };
  const result = Buffer.from(text.split(oldText).join(newText), 'utf8');
  if (result.length > shared.maxWriteBytes) throw tooLarge(who, result.length, shared.maxWriteBytes);
  const writer = await reopenForWriting(who, handle, file);
  try {
    await rewrite(writer, result);
  } catch (error) {
    throw fsError('edit_file', shown, error);
  } finally {
    await writer.close();
  }
  return count;
}

/**
 * The whole text of a regular file for `edit_file`, which must see all of it to edit it, and the open file
 * it came from (the caller closes it).
 * @throws {BuiltinToolError} `invalid_input` for a non-regular file or one over 10 MB (10 000 000 bytes).
 */
async function readWhole(
  file: string,
  shown: string,
  signal: AbortSignal | undefined,
): Promise<{ handle: FileHandle; text: string }> {
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
    return { handle, text: bytes.toString('utf8') };
  } catch (error) {
    await handle.close();
    throw fsError('edit_file', shown, error);
  }
}
