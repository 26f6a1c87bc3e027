// Workload 8: how long the built CLI takes from start to exit for `agentwire --help` (no server; only the
// command definitions are loaded) and for `agentwire tools` against the fast stdio fixture (the MCP layer
// loaded, a server spawned, the handshake and tools/list, the server stopped). Each run is a fresh process,
// the two taking turns; medians of wall time.
//   node bench/workloads/cli-startup.mjs [--runs=N] [--merge]   (--merge: into bench/results.json + RESULTS.md)
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, round } from '../lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..', '..');
const MAIN = path.join(root, process.env.AGENTWIRE_DIST ?? 'dist', 'cli', 'main.js');
const FIXTURE = path.join(here, '..', 'fixtures', 'fast-stdio.mjs');

/** Wall time of one `node <main> …args` to its exit, in ms; throws when it does not exit 0. */
function timed(args) {
  const start = performance.now();
  const run = spawnSync(process.execPath, [MAIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  const ms = performance.now() - start;
  if (run.status !== 0) throw new Error(`agentwire ${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return ms;
}

/** Runs workload 8: `runs` of each command, alternating. */
export async function runCliStartup({ runs = 20 } = {}) {
  const commands = {
    help: ['--help'],
    tools: ['tools', '--stdio', `"${process.execPath}" "${FIXTURE}"`],
  };
  const times = { help: [], tools: [] };
  timed(commands.help); // warm the file cache once
  for (let i = 0; i < runs; i += 1) {
    for (const name of i % 2 === 0 ? ['help', 'tools'] : ['tools', 'help'])
      times[name].push(timed(commands[name]));
  }
  const help = round(median(times.help));
  const tools = round(median(times.tools));
  return { runs, helpMs: help, toolsMs: tools, ratio: round(help / tools, 2) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.slice(7) ?? 20);
  const result = await runCliStartup({ runs });
  if (!process.argv.includes('--merge')) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    const file = path.join(here, '..', 'results.json');
    const results = JSON.parse(readFileSync(file, 'utf8'));
    results.workloads.startup = {
      ...result,
      measuredAt: new Date().toISOString(),
      command: `node bench/workloads/cli-startup.mjs --runs=${runs} --merge`,
    };
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    const { renderReport } = await import('../report.mjs');
    // The committed report compares with bench/results-before.json (`--before=`): keep that column.
    const beforeFile = path.join(here, '..', 'results-before.json');
    const before = existsSync(beforeFile) ? JSON.parse(readFileSync(beforeFile, 'utf8')) : undefined;
    writeFileSync(path.join(here, '..', 'RESULTS.md'), renderReport(results, before));
    process.stderr.write('merged workload 8 into bench/results.json and bench/RESULTS.md\n');
  }
}
