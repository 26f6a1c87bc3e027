/**
 * Opening what the workspace check approved, and nothing else. `Workspace.resolve` checks a path; between
 * that check and an open by the same path, another process can swap a file or a directory on it for a
 * symlink that leads outside the root. So every open here:
 * - refuses a symlink as its last component (`O_NOFOLLOW`), and
 * - checks the opened descriptor itself before a byte is read or written: on Linux the kernel names the
 *   file an open descriptor refers to (`/proc/self/fd/<fd>`), and that name must be the path that was
 *   checked; and
 * - on Linux, opens children relative to an already checked directory descriptor, through
 *   `/proc/self/fd/<dir>/<name>` (Node has no `openat`): a directory swapped after the check cannot
 *   redirect it, so creating a file or directory (which a check afterwards could not undo) never lands
 *   outside.
 * Without `/proc` (macOS, the BSDs, Windows), the check is a second resolution after the open: the path's
 * real path must be unchanged and name the same file (device and inode) as the descriptor. That refuses a
 * swap still in place when it is checked, but a process that swaps and swaps back between the open and
 * the check, or swaps a parent directory just before a file is created, can still win there.
 */
import { constants, existsSync } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readlink, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { fsError } from './define.js';
import { BuiltinToolError, shownPath } from './errors.js';
import { outside } from './workspace.js';

/** Whether open descriptors can be named and opened relative to (`/proc/self/fd`, Linux). */
export const PROC_FD = process.platform === 'linux' && existsSync('/proc/self/fd');

/** `O_NOFOLLOW` and `O_DIRECTORY` where the platform has them (Windows has neither). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const DIRECTORY = constants.O_DIRECTORY ?? 0;

/** Who is opening what, for errors: the tool, and the path as the model gave it (shown via `shownPath`). */
export interface Opener {
  toolName: string;
  shown: string;
  /** Use `/proc/self/fd` (default {@link PROC_FD}); false takes the path of other systems, for its tests. */
  procFd?: boolean;
}

/** A directory inside the workspace, checked once; children are named relative to it. Close it when done. */
export interface ConfinedDir {
  /** Its real path. */
  readonly path: string;
  /** A path that reaches `name` inside this very directory, even if its path was swapped since. */
  child(name: string): string;
  /** A path that reaches this very directory (for `readdir`). */
  self(): string;
  close(): Promise<void>;
}

/**
 * Opens the directory whose real path is `real` (through `parent` when given) and checks it is that one.
 * @throws {BuiltinToolError} `outside_workspace` when it was swapped for a symlink or now lies elsewhere;
 *   `not_found` / `io` (ENOTDIR for a file) when it cannot be opened.
 */
export async function openDir(who: Opener, real: string, parent?: ConfinedDir): Promise<ConfinedDir> {
  if (!(who.procFd ?? PROC_FD)) {
    if ((await realpath(real).catch(refuse(who))) !== real) throw outside(who.toolName, who.shown);
    const info = await stat(real).catch(refuse(who));
    if (!info.isDirectory()) {
      throw new BuiltinToolError(
        'invalid_input',
        who.toolName,
        `"${shownPath(who.shown)}" is not a directory`,
      );
    }
    return { path: real, child: (name) => path.join(real, name), self: () => real, close: async () => {} };
  }
  const where = parent ? parent.child(path.basename(real)) : real;
  const handle = await open(where, constants.O_RDONLY | DIRECTORY | NOFOLLOW).catch(
    async (error: unknown) => {
      // With O_DIRECTORY, Linux reports a symlink as ENOTDIR, as it does a file: tell them apart.
      const link = isCode(error, 'ENOTDIR') && (await lstat(where).catch(() => undefined))?.isSymbolicLink();
      if (link) throw outside(who.toolName, who.shown);
      return refuse(who)(error);
    },
  );
  try {
    await checkDescriptor(who, handle, real);
  } catch (error) {
    await handle.close();
    throw error;
  }
  const self = `/proc/self/fd/${handle.fd}`;
  return { path: real, child: (name) => `${self}/${name}`, self: () => self, close: () => handle.close() };
}

/**
 * Opens the file whose real path is `real` with `flags` (plus `O_NOFOLLOW`), through `dir` when given, and
 * checks it is that one before it is used.
 * @throws {BuiltinToolError} `outside_workspace` when it, or a directory on its path, was swapped for a
 *   symlink; `not_found` / `io` when it cannot be opened (`EEXIST` for `O_EXCL` stays on `cause`).
 */
export async function openFile(
  who: Opener,
  real: string,
  flags: number,
  dir?: ConfinedDir,
): Promise<FileHandle> {
  const where = dir && (who.procFd ?? PROC_FD) ? dir.child(path.basename(real)) : real;
  const handle = await open(where, flags | NOFOLLOW, 0o666).catch(refuse(who));
  try {
    await checkDescriptor(who, handle, real);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * A second descriptor on the file `handle` refers to, for writing: on Linux a reopen of that very file;
 * elsewhere an open of its path, checked to be the same file.
 */
export async function reopenForWriting(who: Opener, handle: FileHandle, real: string): Promise<FileHandle> {
  if (who.procFd ?? PROC_FD) {
    return open(`/proc/self/fd/${handle.fd}`, constants.O_WRONLY).catch(refuse(who));
  }
  const writer = await openFile(who, real, constants.O_WRONLY);
  const [a, b] = await Promise.all([handle.stat(), writer.stat()]);
  if (a.dev !== b.dev || a.ino !== b.ino) {
    await writer.close();
    throw outside(who.toolName, who.shown);
  }
  return writer;
}

/**
 * The directory whose real path is `real`, created (with missing parents, each inside its checked parent)
 * when it does not exist. `root` is the workspace's real root, where creating stops.
 */
export async function ensureDir(who: Opener, real: string, root: string): Promise<ConfinedDir> {
  try {
    return await openDir(who, real);
  } catch (error) {
    if (!(error instanceof BuiltinToolError) || error.kind !== 'not_found' || real === root) throw error;
  }
  const parent = await ensureDir(who, path.dirname(real), root);
  try {
    await mkdir(parent.child(path.basename(real))).catch((e: unknown) =>
      isCode(e, 'EEXIST') ? undefined : refuse(who)(e),
    );
    return await openDir(who, real, parent);
  } finally {
    await parent.close();
  }
}

/** Refuses `handle` unless it is the file at `real` (see the module's note for how, per platform). */
async function checkDescriptor(who: Opener, handle: FileHandle, real: string): Promise<void> {
  if (who.procFd ?? PROC_FD) {
    const named = await readlink(`/proc/self/fd/${handle.fd}`).catch(refuse(who));
    if (named !== real) throw outside(who.toolName, who.shown);
    return;
  }
  const now = await realpath(real).catch(() => undefined);
  if (now !== real) throw outside(who.toolName, who.shown);
  const [opened, there] = await Promise.all([handle.stat(), stat(real).catch(refuse(who))]);
  if (opened.dev !== there.dev || opened.ino !== there.ino) throw outside(who.toolName, who.shown);
}

/** Maps an open's failure: a symlink where `O_NOFOLLOW` forbids one is a refusal, the rest {@link fsError}. */
function refuse(who: Opener): (error: unknown) => never {
  return (error) => {
    // ELOOP: Linux, macOS; EMLINK: FreeBSD and NetBSD report a symlink refused by O_NOFOLLOW so.
    if (isCode(error, 'ELOOP') || isCode(error, 'EMLINK')) throw outside(who.toolName, who.shown);
    throw fsError(who.toolName, shownPath(who.shown), error);
  };
}

/** Whether `error` is a Node system error with this `code` (`ENOENT`, `EEXIST`, …). */
export function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}
