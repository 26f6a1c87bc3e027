/**
 * Writes for `write_file` and `edit_file`, into the file `Workspace.resolve` approved and nowhere else: the
 * directories on the way are created each inside its checked parent, and the file is opened (or created,
 * `O_EXCL`) relative to its checked directory, never through a symlink (see `confined.ts`). An existing
 * file is rewritten in place, so its mode, owner and hard links stay as they were.
 */
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { type ConfinedDir, ensureDir, isCode, type Opener, openFile } from './confined.js';
import { BuiltinToolError, shownPath } from './errors.js';
import { notRegular } from './read-text.js';
import type { Workspace } from './workspace.js';

/** Default cap on what `write_file` writes and what an `edit_file` result may grow to, in bytes (UTF-8). */
export const DEFAULT_MAX_WRITE_BYTES = 10_000_000;

/** Times a file that vanishes between "exists" and "create" is tried again before giving up. */
const OPEN_ATTEMPTS = 3;

/**
 * The refusal of `bytes` bytes over `maxBytes`.
 * @returns a {@link BuiltinToolError} of kind `invalid_input`, reason `too_large`.
 */
export function tooLarge(who: Opener, bytes: number, maxBytes: number): BuiltinToolError {
  const shown = shownPath(who.shown);
  return new BuiltinToolError(
    'invalid_input',
    who.toolName,
    `${bytes} bytes for "${shown}" is more than ${who.toolName} writes (maxWriteBytes ${maxBytes})`,
    { reason: 'too_large', path: shown },
  );
}

/**
 * Replaces the content of the file at the real path `file` (created, with missing parent directories,
 * when it does not exist) with `bytes`.
 * @throws {BuiltinToolError} `outside_workspace` when a symlink was swapped in on its path; `invalid_input`
 *   for a directory, FIFO or device; `io` when the file system refuses.
 */
export async function writeConfined(
  who: Opener,
  workspace: Workspace,
  file: string,
  bytes: Uint8Array,
): Promise<void> {
  const dir = await ensureDir(who, path.dirname(file), await workspace.realRoot());
  try {
    const handle = await openForWriting(who, file, dir);
    try {
      await rewrite(handle, bytes);
    } finally {
      await handle.close();
    }
  } finally {
    await dir.close();
  }
}

/** Truncates `handle`'s file and writes `bytes` from its start. */
export async function rewrite(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  await handle.truncate(0);
  for (let written = 0; written < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, written);
    written += bytesWritten;
  }
}

/** The regular file at `file` in `dir`, opened for writing, or created there when it does not exist. */
async function openForWriting(who: Opener, file: string, dir: ConfinedDir): Promise<FileHandle> {
  // O_NONBLOCK: opening a FIFO that has no reader fails at once (ENXIO) instead of waiting for one.
  const existing = constants.O_WRONLY | (constants.O_NONBLOCK ?? 0);
  const create = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;
  for (let attempt = 1; ; attempt++) {
    try {
      const handle = await openFile(who, file, existing, dir);
      const regular = await handle.stat().then(
        (info) => info.isFile(),
        async (error: unknown) => {
          await handle.close();
          throw error;
        },
      );
      if (regular) return handle;
      await handle.close();
      throw notRegular(who.toolName, shownPath(who.shown));
    } catch (error) {
      if (causeIs(error, 'ENXIO') || causeIs(error, 'EISDIR'))
        throw notRegular(who.toolName, shownPath(who.shown));
      if (!(error instanceof BuiltinToolError) || error.kind !== 'not_found') throw error;
    }
    try {
      return await openFile(who, file, create, dir);
    } catch (error) {
      // Created by someone else since the first open: open that one, a few times at most.
      if (!causeIs(error, 'EEXIST') || attempt >= OPEN_ATTEMPTS) throw error;
    }
  }
}

function causeIs(error: unknown, code: string): boolean {
  return error instanceof BuiltinToolError && isCode(error.cause, code);
}
