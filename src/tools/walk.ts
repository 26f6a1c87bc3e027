/**
 * Walking the workspace for `list_files` and `search`: depth-first, sorted, never following symlinks out
 * (symlinked entries are listed, not entered), skipping `.git` and `node_modules`.
 */
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** Directories never entered: huge and never what the model is looking for. */
export const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);

/** One entry found. */
export interface WalkEntry {
  absolute: string;
  isDirectory: boolean;
  /** A symlink: listed, but never entered or read (it may point outside the workspace). */
  isSymlink: boolean;
  depth: number;
}

/**
 * Yields the entries under `dir` (not `dir` itself), up to `maxDepth` levels (1 = direct children).
 * Stops early when `signal` fires.
 */
export async function* walk(
  dir: string,
  maxDepth: number,
  signal?: AbortSignal,
  depth = 1,
): AsyncIterable<WalkEntry> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (signal?.aborted) return;
    const absolute = path.join(dir, entry.name);
    const isDirectory = entry.isDirectory();
    yield { absolute, isDirectory, isSymlink: entry.isSymbolicLink(), depth };
    if (isDirectory && depth < maxDepth && !SKIPPED_DIRECTORIES.has(entry.name)) {
      yield* walk(absolute, maxDepth, signal, depth + 1);
    }
  }
}
