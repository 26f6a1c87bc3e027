/**
 * The workspace root that confines every built-in tool. A path is accepted only when both its lexical form
 * and its real path (symlinks resolved, for the deepest part that exists) stay inside the root's real path.
 * That check is by path, so the tools then open what it found in a way that a symlink swapped in after
 * the check cannot redirect (see `confined.ts`).
 */
import { readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { BuiltinToolError, fsError, shownPath } from './errors.js';

/** Longest path segment accepted, in UTF-8 bytes (`NAME_MAX` of Linux, macOS and Windows file systems). */
export const MAX_NAME_BYTES = 255;
/** Longest path accepted, in UTF-8 bytes (Linux `PATH_MAX`). */
export const MAX_PATH_BYTES = 4_096;

/** A confined directory tree. */
export class Workspace {
  /** The root as given, made absolute. */
  readonly root: string;
  #realRoot: Promise<string> | undefined;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /**
   * The absolute path for `relative` (relative to the root, or absolute inside it).
   * @throws {BuiltinToolError} `outside_workspace` when the path, or what a symlink on it points to, is
   *   outside the root; `invalid_input` for an empty or non-string path, and (with `reason`) for a path
   *   holding a NUL byte (`nul_byte`) or longer than {@link MAX_NAME_BYTES} per segment or
   *   {@link MAX_PATH_BYTES} in all (`name_too_long`); `io` when the file system refuses to resolve it.
   */
  async resolve(toolName: string, relative: unknown): Promise<string> {
    if (typeof relative !== 'string' || relative === '') {
      throw new BuiltinToolError('invalid_input', toolName, 'path must be a non-empty string');
    }
    checkName(toolName, relative);
    const root = await this.realRoot();
    const absolute = path.resolve(root, relative);
    if (!isInside(root, absolute)) throw outside(toolName, relative);
    const real = await realOfDeepestExisting(absolute).catch((e: unknown) =>
      Promise.reject(fsError(toolName, shownPath(relative), e)),
    );
    if (!isInside(root, real)) throw outside(toolName, relative);
    return real;
  }

  /** The path of `absolute` relative to the root, with `/` separators (`.` for the root itself). */
  async relative(absolute: string): Promise<string> {
    const rel = path.relative(await this.realRoot(), absolute);
    return rel === '' ? '.' : rel.split(path.sep).join('/');
  }

  /** The root with symlinks resolved. */
  realRoot(): Promise<string> {
    this.#realRoot ??= realpath(this.root);
    return this.#realRoot;
  }
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  // Segments, not a prefix: `..foo` is a file in the root, `../foo` is not.
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** The refusal of a path that leads (or, mid-call, came to lead) outside the root. */
export function outside(toolName: string, relative: string): BuiltinToolError {
  const shown = shownPath(relative);
  return new BuiltinToolError('outside_workspace', toolName, `path "${shown}" is outside the workspace`, {
    reason: 'outside_workspace',
    path: shown,
  });
}

/** Refuses what no file system takes as a name, before it reaches one (Node throws untyped errors). */
function checkName(toolName: string, relative: string): void {
  const shown = shownPath(relative);
  if (relative.includes('\0')) {
    throw new BuiltinToolError('invalid_input', toolName, `path "${shown}" holds a NUL byte`, {
      reason: 'nul_byte',
      path: shown,
    });
  }
  const tooLong =
    Buffer.byteLength(relative) > MAX_PATH_BYTES ||
    relative.split(/[\\/]/).some((segment) => Buffer.byteLength(segment) > MAX_NAME_BYTES);
  if (tooLong) {
    throw new BuiltinToolError(
      'invalid_input',
      toolName,
      `path "${shown}" is too long: at most ${MAX_NAME_BYTES} bytes per name and ${MAX_PATH_BYTES} in all`,
      { reason: 'name_too_long', path: shown },
    );
  }
}

/** Dangling links followed before giving up, as the kernel's own limit (`ELOOP` after 40). */
const MAX_LINK_HOPS = 40;

/**
 * Real path of `absolute`, resolving the deepest existing ancestor when it does not exist yet (writes).
 *
 * A dangling symlink is not a missing file: writing to it creates its target, wherever that is. So an
 * entry that exists as a link (`lstat` succeeds where `realpath` says ENOENT) is followed by hand, and its
 * target is checked like any other path.
 */
async function realOfDeepestExisting(absolute: string, hops = 0): Promise<string> {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return path.join(await realpath(current), ...missing.reverse());
    } catch (error) {
      const parent = path.dirname(current);
      if (parent === current || !isMissing(error)) throw error;
      const target = await linkTarget(current);
      if (target !== undefined) {
        if (hops >= MAX_LINK_HOPS) throw error;
        const followed = path.resolve(parent, target, ...missing.reverse());
        return realOfDeepestExisting(followed, hops + 1);
      }
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/** What the symlink at `file` points to, or undefined when `file` is not a symlink (or does not exist). */
async function linkTarget(file: string): Promise<string | undefined> {
  try {
    return await readlink(file);
  } catch {
    return undefined;
  }
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && (error.code === 'ENOENT' || error.code === 'ENOTDIR');
}
