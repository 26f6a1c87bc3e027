/**
 * Suite-wide check: after every test file has run, no process this test run started may still be running.
 * Test processes are recognised by their command line (real servers run from node_modules, fixtures from
 * test/fixtures), so a leak anywhere in the suite fails the run with the culprits' command lines.
 *
 * Only this run's processes count, not every one of this checkout: a second `vitest run` or a bench running
 * from the same checkout at the same time starts the same servers, and they are not our leaks. A process is
 * this run's when either
 * - its environment carries {@link RUN_VARIABLE} with this run's id: set here, in the vitest process, before
 *   any worker starts, so workers and every child spawned with their environment inherit it; or
 * - it was seen, while it ran, below the vitest process in the process tree. This is what catches MCP stdio
 *   servers: agentwire spawns them with a minimal environment (no marker) and detached, so neither the
 *   environment nor the process group says whose they are, and a leaked one has been handed to init by the
 *   time its worker exits. So the tree is scanned every {@link SCAN_INTERVAL_MS} while the suite runs, and
 *   each descendant is remembered by pid and start time (a pid reused by someone else's process has another).
 * Linux /proc throughout (the suite runs on Linux).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { SKIP_LOG_VARIABLE, SYSTEM_PROGRAMS, type SystemProgram } from './fixtures/system-programs.js';

const MARKERS = ['node_modules/@modelcontextprotocol/server-', '/test/fixtures/'];
/** The environment variable that names the test run a process belongs to. */
const RUN_VARIABLE = 'AGENTWIRE_TEST_RUN';
/** How often the process tree is scanned for this run's descendants, in milliseconds. */
const SCAN_INTERVAL_MS = 200;

/** When `pid` started (clock ticks after boot; with the pid it names one process); undefined once gone. */
function startTime(pid: number | string): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces and parentheses): state, ppid, … starttime.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined; // exited while we looked
  }
}

/** The run's id, set by `setup`. */
let runId = '';
/** This run's descendants seen so far: pid → start time. */
const seen = new Map<number, string>();
let scanner: NodeJS.Timeout | undefined;

/**
 * Remembers every process below this (the vitest) process. It walks down from here through each thread's
 * `children` list, so a scan costs what this run's own processes number, not the whole machine's.
 */
function recordDescendants(): void {
  const queue = [process.pid];
  for (let pid = queue.pop(); pid !== undefined; pid = queue.pop()) {
    let threads: string[];
    try {
      threads = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // exited while we looked
    }
    for (const thread of threads) {
      let children: string;
      try {
        children = readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const child of children
        .split(' ')
        .filter((one) => one !== '')
        .map(Number)) {
        const start = startTime(child);
        if (start === undefined) continue;
        seen.set(child, start);
        queue.push(child);
      }
    }
  }
}

/** Whether `pid`'s environment names this run. */
function carriesRunId(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`${RUN_VARIABLE}=${runId}`);
  } catch {
    return false; // exited while we looked, or not ours to read
  }
}

function leftovers(): string[] {
  recordDescendants();
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
    } catch {
      continue; // exited while we looked
    }
    if (cmdline.includes('vitest')) continue;
    if (!MARKERS.some((marker) => cmdline.includes(marker))) continue;
    const pid = Number(entry);
    const ours = (seen.has(pid) && seen.get(pid) === startTime(pid)) || carriesRunId(pid);
    if (ours) found.push(`${entry}: ${cmdline}`);
  }
  return found;
}

/** The folder of the file where workers note the suites skipped for a missing system program. */
let skipDir = '';

/** The project this run started with (`setup`), to read which files ran. */
let project: TestProject | undefined;

/**
 * What the adapter tests that live in frameworks/ add to the line: they need Node >= 22 and the frameworks
 * installed there, so this vitest never runs them; named when the run includes the adapters' suite
 * (test/adapters/, as `npm test` does), with the command that runs them.
 */
function frameworksPart(): string | undefined {
  const adaptersDir = path.join(process.cwd(), 'test', 'adapters') + path.sep;
  // Every project of the run has its own setup: the one that ran test/adapters/ names them, once.
  const ran = (project?.vitest.state.getFiles() ?? []).filter((file) => file.projectName === project?.name);
  if (!ran.some((file) => file.filepath.startsWith(adaptersDir))) return undefined;
  const files = readdirSync(path.join(process.cwd(), 'frameworks', 'test'))
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `frameworks/test/${name}`)
    .sort();
  return `${files.length} test files need Node >= 22 and the frameworks of frameworks/ (${files.join(', ')}; run: npm run test:frameworks)`;
}

/**
 * What did not run in this project, for want of a system program or of the frameworks' Node, and how to
 * enable it: the parts of the one line the run ends with.
 */
function notRunParts(): string[] {
  const frameworks = frameworksPart();
  let text = '';
  try {
    text = readFileSync(path.join(skipDir, 'skipped.jsonl'), 'utf8');
  } catch {
    // nothing was skipped for a system program
  }
  const files = new Map<SystemProgram, Set<string>>();
  for (const line of text.split('\n').filter((one) => one !== '')) {
    const { program, file } = JSON.parse(line) as { program: SystemProgram; file: string };
    const set = files.get(program) ?? new Set<string>();
    set.add(path.relative(process.cwd(), file));
    files.set(program, set);
  }
  const parts = [...files].map(
    ([program, set]) =>
      `${set.size} test file${set.size === 1 ? '' : 's'} need${set.size === 1 ? 's' : ''} ${program} (${[...set].sort().join(', ')}; enable: ${SYSTEM_PROGRAMS[program]})`,
  );
  if (frameworks !== undefined) parts.push(frameworks);
  return parts;
}

/**
 * The run's projects (quick, quick-fresh, processes) each call `setup` and `teardown` with a module of their
 * own: what they share lives on `globalThis`, so that the last teardown prints the one `not run:` line.
 */
interface RunShared {
  projects: number;
  notRun: string[];
}
const RUN_KEY = Symbol.for('agentwire.test-run');
const registry = globalThis as unknown as Record<symbol, RunShared | undefined>;
if (registry[RUN_KEY] === undefined) registry[RUN_KEY] = { projects: 0, notRun: [] };
const shared = registry[RUN_KEY];

export function setup(started: TestProject): void {
  shared.projects += 1;
  project = started;
  runId = `${process.pid}-${Date.now()}`;
  process.env[RUN_VARIABLE] = runId;
  skipDir = mkdtempSync(path.join(tmpdir(), 'agentwire-skips-'));
  process.env[SKIP_LOG_VARIABLE] = path.join(skipDir, 'skipped.jsonl');
  scanner = setInterval(recordDescendants, SCAN_INTERVAL_MS);
  scanner.unref();
}

export async function teardown(): Promise<void> {
  clearInterval(scanner);
  // Give processes that are being killed right now a moment to be reaped.
  for (let i = 0; i < 20 && leftovers().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  const after = leftovers();
  if (after.length > 0) {
    // Vitest reports an error thrown here ("error during close") but still exits 0: set the code ourselves.
    console.error(`test processes left running after the suite:\n${after.join('\n')}`);
    process.exitCode = 1;
  }
  for (const part of notRunParts()) if (!shared.notRun.includes(part)) shared.notRun.push(part);
  rmSync(skipDir, { recursive: true, force: true });
  shared.projects -= 1;
  if (shared.projects === 0 && shared.notRun.length > 0)
    process.stdout.write(`\nnot run: ${shared.notRun.join('; ')}\n`);
}
