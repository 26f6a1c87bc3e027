/**
 * Ending a stdio server's whole process tree, not just the process we spawned.
 *
 * A server started through a wrapper (`npx`, `uvx`, a shell script) runs as our grandchild: signalling only
 * the direct child leaves it running. On POSIX we spawn the child `detached`, which makes it the leader of a
 * new process group (and session), so one `kill(-pgid)` reaches every descendant that did not leave the
 * group on purpose. On Windows there are no process groups; `tree-kill` walks the tree (`taskkill /T`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import treeKill from 'tree-kill';
import { sleep } from './sleep.js';

/** True where process groups exist and we spawn servers as group leaders (every platform but Windows). */
export const usesProcessGroups = process.platform !== 'win32';

/**
 * Sends `signal` to the process tree led by `pid`: its process group on POSIX, `tree-kill` on Windows.
 * Never throws: a group that is already gone (`ESRCH`) is the goal, not a failure.
 *
 * @param pid - the pid of a child spawned with `detached: true` (so it leads its own process group).
 * @returns `false` when no process of the tree was left to signal.
 */
export function signalProcessTree(pid: number, signal: NodeJS.Signals): boolean {
  if (!usesProcessGroups) {
    treeKill(pid, signal, ignoreError);
    return true;
  }
  try {
    process.kill(-pid, signal);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'ESRCH') return false;
    // EPERM: a member changed its credentials (setuid helper). Fall back to walking the tree by ppid.
    treeKill(pid, signal, ignoreError);
    return true;
  }
}

/** tree-kill throws from a callback-less async path; a kill that fails leaves the tree to the next step. */
function ignoreError(): void {}

/**
 * True while any process of the tree led by `pid` is still running (on POSIX: the process group still has
 * a member, even after its leader exited). Signal 0 checks existence without delivering anything.
 *
 * Zombies do not count: an orphaned grandchild is re-parented to PID 1, and in a container PID 1 is often a
 * process that never reaps (the app itself, or a supervisor without `--init`), so a killed grandchild can
 * stay a zombie forever; signal 0 still "finds" it. On Linux we read `/proc` to see past zombies.
 */
export function isProcessTreeAlive(pid: number): boolean {
  try {
    process.kill(usesProcessGroups ? -pid : pid, 0);
  } catch (error) {
    // EPERM means it exists but belongs to someone else: still alive.
    return errnoCode(error) === 'EPERM';
  }
  return process.platform === 'linux' ? linuxGroupHasLiveMember(pid) : true;
}

/** Scans `/proc/<pid>/stat` for a process of group `pgid` whose state is not zombie (`Z`) or dead (`X`). */
function linuxGroupHasLiveMember(pgid: number): boolean {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true; // no /proc to look at: trust the signal-0 answer
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp ...": comm may contain spaces and parentheses, so split after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}

/**
 * Resolves `true` as soon as the tree led by `pid` has no process left, or `false` after `timeoutMs`.
 * Polls every `intervalMs` (default 20 ms): the kernel offers no event for "a process group emptied".
 */
export async function waitForProcessTreeExit(
  pid: number,
  timeoutMs: number,
  intervalMs = 20,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isProcessTreeAlive(pid)) {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    await sleep(Math.min(intervalMs, left));
  }
  return true;
}

function errnoCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

const liveTrees = new Set<number>();
let exitHookInstalled = false;

/**
 * Remembers a running server tree so that it is SIGKILLed if the host exits without closing it.
 *
 * Best effort, by design: one `process.on('exit')` hook (installed once, shared by all transports) runs on
 * `process.exit()` and on a natural end of the event loop. It does not run when the host dies from a signal
 * (SIGINT, SIGTERM) with no handler installed, and we deliberately install none, because a library must not
 * change how its host reacts to Ctrl-C. A host that handles those signals should close its clients (or call
 * `process.exit()`, which runs the hook).
 */
export function trackProcessTree(pid: number): void {
  liveTrees.add(pid);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', killTrackedTreesNow);
  }
}

/** Forgets a tree that has been ended (see {@link trackProcessTree}). */
export function untrackProcessTree(pid: number): void {
  liveTrees.delete(pid);
}

/** The `exit` hook: synchronous, because nothing asynchronous runs once the host is exiting. */
function killTrackedTreesNow(): void {
  for (const pid of liveTrees) {
    try {
      process.kill(usesProcessGroups ? -pid : pid, 'SIGKILL');
    } catch {
      // Already gone, or not ours to kill: nothing more can be done while exiting.
    }
  }
  liveTrees.clear();
}
