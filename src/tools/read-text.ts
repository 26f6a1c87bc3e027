/**
 * Bounded, abortable reads for `read_file` and `edit_file`. A file is opened before it is checked (no race
 * between the check and the read), without blocking (a FIFO would otherwise wait for a writer forever), and
 * only a regular file is read; then no more than the caller can show is kept in memory.
 */
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { openFile } from './confined.js';
import { decodeHead, fsError } from './define.js';
import { BuiltinToolError } from './errors.js';

/** Bytes read per step; abort is checked between steps. */
const CHUNK_BYTES = 64 * 1024;

/** An open regular file and its size in bytes. Close `handle` when done. */
export interface OpenFile {
  handle: FileHandle;
  size: number;
}

/**
 * Opens `file` (a real path `Workspace.resolve` approved) for reading, through `openFile`: a symlink
 * swapped in on its path since the check is refused, not followed.
 * @param shown - the path as the model gave it, for messages.
 * @throws {BuiltinToolError} `invalid_input` (`"<shown>" is not a regular file`) for a directory, FIFO,
 *   socket or device; `outside_workspace` for a swapped path; `not_found` / `io` when it cannot be opened.
 */
export async function openRegularFile(toolName: string, file: string, shown: string): Promise<OpenFile> {
  // O_NONBLOCK makes opening a FIFO return at once; on a regular file it changes nothing. Windows has none.
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
  const handle = await openFile({ toolName, shown }, file, flags);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw notRegular(toolName, shown);
    return { handle, size: info.size };
  } catch (error) {
    await handle.close();
    throw fsError(toolName, shown, error);
  }
}

/** The refusal for anything but a regular file. */
export function notRegular(toolName: string, shown: string): BuiltinToolError {
  return new BuiltinToolError('invalid_input', toolName, `"${shown}" is not a regular file`);
}

/**
 * The first `maxBytes` bytes of the file (fewer at its end).
 * @throws {BuiltinToolError} `aborted` when `signal` fires, `io` when reading fails.
 */
export async function readHead(
  toolName: string,
  handle: FileHandle,
  maxBytes: number,
  signal: AbortSignal | undefined,
): Promise<Buffer> {
  const buffer = Buffer.alloc(maxBytes);
  let filled = 0;
  while (filled < maxBytes) {
    throwIfAborted(toolName, signal);
    const { bytesRead } = await handle.read(buffer, filled, Math.min(CHUNK_BYTES, maxBytes - filled), filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return buffer.subarray(0, filled);
}

/** Lines of a file, as `text.split('\n').slice(start, end).join('\n')` would give them. */
export interface LineRange {
  text: string;
  /** 1-based number of the first line not shown in full, when the range was cut at `maxBytes`. */
  cutAtLine?: number;
}

/**
 * Lines `start` to `end - 1` (0-based, `end` exclusive; `Infinity` for the rest), streamed: lines before
 * `start` are counted, not kept, and reading stops once more than `maxBytes` of the range were read.
 * @throws {BuiltinToolError} `aborted` when `signal` fires, `io` when reading fails.
 */
export async function readLineRange(
  toolName: string,
  handle: FileHandle,
  range: { start: number; end: number; maxBytes: number },
  signal: AbortSignal | undefined,
): Promise<LineRange> {
  const { start, end, maxBytes } = range;
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let line = 0; // index of the line the next byte belongs to
  let position = 0;
  const buffer = Buffer.alloc(CHUNK_BYTES);
  while (line < end) {
    throwIfAborted(toolName, signal);
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const chunk = buffer.subarray(0, bytesRead);
    // A newline byte never occurs inside a multi-byte UTF-8 character, so lines can be split as bytes.
    for (let from = 0; from < bytesRead && line < end; ) {
      const newline = chunk.indexOf(10, from);
      const stop = newline === -1 ? bytesRead : newline;
      if (line >= start) {
        const withSeparator = newline !== -1 && line + 1 < end;
        const piece = chunk.subarray(from, withSeparator ? newline + 1 : stop);
        kept.push(Buffer.from(piece));
        keptBytes += piece.length;
        if (keptBytes > maxBytes) {
          const shownOfLine = maxBytes - (keptBytes - piece.length);
          const cutAtLine = shownOfLine >= stop - from ? line + 2 : line + 1;
          return { text: decodeHead(Buffer.concat(kept), maxBytes), cutAtLine };
        }
      }
      if (newline === -1) break;
      line += 1;
      from = newline + 1;
    }
  }
  return { text: Buffer.concat(kept).toString('utf8') };
}

/** Throws a {@link BuiltinToolError} of kind `aborted`, the signal's reason on `cause`, once `signal` fired. */
export function throwIfAborted(toolName: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new BuiltinToolError('aborted', toolName, `${toolName} aborted`, { cause: signal.reason });
  }
}
