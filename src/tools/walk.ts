/**
 * Walking the workspace for `list_files` and `search`: depth-first, sorted, never following symlinks out
 * (symlinked entries are listed, not entered), skipping `.git` and `node_modules`. Each directory is
 * opened from its already opened parent and checked (see `confined.ts`), so a directory swapped for a
 * symlink while the walk runs is skipped, not entered.
 */
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { type ConfinedDir, openDir } from './confined.js';

/** Directories never entered: huge and never what the model is looking for. */
export const SKIPPED_DIRECTORIES = new Set(['.git', 'node_modules']);

/** One entry found. */
export interface WalkEntry {
  /** Its real path (inside the workspace when it was listed). */
  absolute: string;
  isDirectory: boolean;
  /** A symlink: listed, but never entered or read (it may point outside the workspace). */
  isSymlink: boolean;
  depth: number;
}

/**
 * Yields the entries under `dir` (not `dir` itself), up to `maxDepth` levels (1 = direct children).
 * Stops early when `signal` fires. `dir` stays open (the caller closes it); the directories below it are
 * closed as the walk leaves them, also when the caller stops early.
 */
export async function* walk(
  dir: ConfinedDir,
  maxDepth: number,
  signal?: AbortSignal,
  depth = 1,
): AsyncIterable<WalkEntry> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir.self(), { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (signal?.aborted) return;
    const absolute = path.join(dir.path, entry.name);
    const isDirectory = entry.isDirectory();
    yield { absolute, isDirectory, isSymlink: entry.isSymbolicLink(), depth };
    if (isDirectory && depth < maxDepth && !SKIPPED_DIRECTORIES.has(entry.name)) {
      const sub = await openDir({ toolName: 'walk', shown: absolute }, absolute, dir).catch(() => undefined);
      if (sub === undefined) continue;
      try {
        yield* walk(sub, maxDepth, signal, depth + 1);
      } finally {
        await sub.close();
      }
    }
  }
}
