// Before and after in one run: agentwire's current build (dist/) against an earlier build of it
// (AGENTWIRE_BEFORE_DIST, e.g. `tsc -p tsconfig.build.json --outDir <dir>` in a worktree of the earlier
// commit) and the bare pipe (no library), all three connected at once to their own copy of the fast fixture
// over stdio and, for the round trip, over Streamable HTTP; they take turns in rounds, the first rotating,
// so load drifts on a shared machine hit them alike. Reported: the median round trip (µs) and client CPU per
// call (µs), and the total time of `--burst` concurrent calls over stdio, each with its ratio to the floor.
//   npm run build && node bench/before-after.mjs [--rounds=20] [--per-round=100] [--burst=1000]
// The earlier build is 33fb3ca (before the one owner of the wire), built once into bench/.build/ from
// `git archive` (kept for later runs); `AGENTWIRE_BEFORE_DIST=<dir>` compares another build instead.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ADAPTERS } from './lib/clients.mjs';
import { fastStdio, startFastHttp } from './lib/servers.mjs';
import { median, rotate, usSince } from './lib/stats.mjs';

const arg = (name, fallback) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const ROUNDS = arg('rounds', 20);
const PER_ROUND = arg('per-round', 100);
const BURST = arg('burst', 1000);
const BEFORE_COMMIT = '33fb3ca';
const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const before = process.env.AGENTWIRE_BEFORE_DIST ?? builtBefore();

/** The build of {@link BEFORE_COMMIT}: its sources from git, compiled with this checkout's TypeScript. */
function builtBefore() {
  const dir = path.join(root, 'bench', '.build', `before-${BEFORE_COMMIT}`);
  const dist = path.join(dir, 'dist');
  if (existsSync(path.join(dist, 'index.js'))) return dist;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = path.join(dir, 'source.tar');
  execFileSync(
    'git',
    [
      'archive',
      '--output',
      archive,
      BEFORE_COMMIT,
      'src',
      'package.json',
      'tsconfig.json',
      'tsconfig.build.json',
    ],
    { cwd: root },
  );
  execFileSync('tar', ['-xf', archive, '-C', dir]);
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(dir, 'tsconfig.build.json')], {
    cwd: dir,
    stdio: 'inherit',
  });
  return dist;
}

const floor = ADAPTERS.find((a) => a.id === 'floor');
const build = async (dir) => (await import(pathToFileURL(path.resolve(dir, 'index.js')).href)).MCPClient;
const builds = { before: await build(before), after: await build(path.join(root, 'dist')) };
const viaAgentwire = (MCPClient) => ({
  stdio: async (cfg) => connected(MCPClient.fromStdio({ command: cfg.command, args: cfg.args ?? [] })),
  http: async (url) => connected(MCPClient.fromUrl(url, { transport: 'streamable-http' })),
});
async function connected(client) {
  await client.connect();
  return { call: (name, input) => client.callTool(name, input), close: () => client.disconnect() };
}
const clients = [
  { id: 'floor', ...floor },
  { id: 'before', ...viaAgentwire(builds.before) },
  { id: 'after', ...viaAgentwire(builds.after) },
];

async function roundTrip(connect) {
  const conns = [];
  for (const client of clients) conns.push({ id: client.id, conn: await connect(client) });
  const samples = new Map(conns.map(({ id }) => [id, []]));
  const cpu = new Map(conns.map(({ id }) => [id, 0]));
  try {
    for (const { conn } of conns) for (let i = 0; i < 200; i++) await conn.call('echo', { message: 'warm' });
    for (let r = 0; r < ROUNDS; r++) {
      for (const { id, conn } of rotate(conns, r)) {
        const start = process.cpuUsage();
        for (let i = 0; i < PER_ROUND; i++) {
          const t = performance.now();
          await conn.call('echo', { message: `hello ${i}` });
          samples.get(id).push(usSince(t));
        }
        const used = process.cpuUsage(start);
        cpu.set(id, cpu.get(id) + used.user + used.system);
      }
    }
  } finally {
    for (const { conn } of conns) await conn.close().catch(() => {});
  }
  return Object.fromEntries(
    [...samples].map(([id, s]) => [id, { medianUs: median(s), cpuUs: cpu.get(id) / s.length }]),
  );
}

async function burst() {
  const conns = [];
  for (const client of clients) conns.push({ id: client.id, conn: await client.stdio(fastStdio()) });
  const totals = new Map(conns.map(({ id }) => [id, []]));
  try {
    for (const { conn } of conns)
      await Promise.all(Array.from({ length: 100 }, () => conn.call('echo', { message: 'warm' })));
    for (let r = 0; r < Math.max(3, ROUNDS / 4); r++) {
      for (const { id, conn } of rotate(conns, r)) {
        const t = performance.now();
        await Promise.all(Array.from({ length: BURST }, (_, i) => conn.call('echo', { message: `m${i}` })));
        totals.get(id).push(performance.now() - t);
      }
    }
  } finally {
    for (const { conn } of conns) await conn.close().catch(() => {});
  }
  return Object.fromEntries([...totals].map(([id, t]) => [id, { medianMs: median(t) }]));
}

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
const startLoad = load();
const stdio = await roundTrip((c) => c.stdio(fastStdio()));
const fastHttp = await startFastHttp();
let http;
try {
  http = await roundTrip((c) => c.http(fastHttp.url));
} finally {
  await fastHttp.stop();
}
const concurrent = await burst();
const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
const out = {
  date: new Date().toISOString(),
  node: process.version,
  load: { start: startLoad, end: load() },
  stdio,
  http,
  concurrent,
  ratios: {
    stdioAfterToFloor: ratio(stdio.after.medianUs, stdio.floor.medianUs),
    stdioBeforeToFloor: ratio(stdio.before.medianUs, stdio.floor.medianUs),
    stdioAfterToBefore: ratio(stdio.after.medianUs, stdio.before.medianUs),
    stdioCpuAfterToBefore: ratio(stdio.after.cpuUs, stdio.before.cpuUs),
    httpAfterToBefore: ratio(http.after.medianUs, http.before.medianUs),
    httpCpuAfterToBefore: ratio(http.after.cpuUs, http.before.cpuUs),
    burstAfterToFloor: ratio(concurrent.after.medianMs, concurrent.floor.medianMs),
    burstBeforeToFloor: ratio(concurrent.before.medianMs, concurrent.floor.medianMs),
  },
};
process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
