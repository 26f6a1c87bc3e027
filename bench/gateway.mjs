#!/usr/bin/env node
import { execFileSync, spawn } from 'node:child_process';
// `agentwire serve` against calling the upstreams directly, in one run: agentwire's client calls `echo` on
// server-everything, on the fast fixture and on the busy fixture (the fast one doing ~2 ms of CPU work per
// call; all stdio upstreams) directly, through the floor (fixtures/line-relay.mjs: the least a process in
// between can do, a raw line relay with id rewriting), and through the gateway over stdio (`serve --stdio`:
// one more stdio hop) and over Streamable HTTP (`serve --port`), taking turns in rounds (the first
// rotating) so load drifts hit every path alike. Reported: median round trip per path and through / direct
// (goal: ≤ 1.3× direct over stdio), 1 000 concurrent calls (wall time, through / direct), and the middle
// process's own CPU time per call (user + system, from /proc: on a loaded machine the figure wall time
// cannot give). The fast HTTP fixture (its own process) is a fourth upstream: directly, through the HTTP
// floor (fixtures/http-relay.mjs: a raw HTTP relay that rewrites tool names), through `serve --stdio` and
// `serve --port`. Then throughput with that upstream: wrk as the load generator (fixtures/wrk-mcp.lua: 2
// threads, 32 kept-alive connections, 2026-07-28 tools/call) directly, through the floor, through one
// `serve --port` process and through two (one wrk thread on each), taking turns in rounds: calls per
// second, p50 / p99 latency and what the middle adds to them, CPU per call of the middle processes, the
// upstream and the load generator, the load average.
// Writes bench/results-gateway.json.
//   AGENTWIRE_DIST=<dir> measures another build (e.g. the one before a change) with this same script.
//   npm run build && node --no-warnings bench/gateway.mjs [--quick] [--no-write] [--throughput-only]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runMeta } from './lib/meta.mjs';
import { EVERYTHING, FAST_HTTP, FAST_STDIO, smallEnv } from './lib/servers.mjs';
import { median, quantile, ratio, rotate, round, usSince } from './lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const BUSY_STDIO = path.join(here, 'fixtures', 'busy-stdio.mjs');
const LINE_RELAY = path.join(here, 'fixtures', 'line-relay.mjs');
const HTTP_RELAY = path.join(here, 'fixtures', 'http-relay.mjs');
const dist = path.resolve(root, process.env.AGENTWIRE_DIST ?? 'dist');
const { MCPClient } = await import(pathToFileURL(path.join(dist, 'index.js')).href);
const MAIN = path.join(dist, 'cli', 'main.js');

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const COUNTS = quick
  ? { warmup: 20, rounds: 3, perRound: 30, concurrent: 1000 }
  : { warmup: 200, rounds: 20, perRound: 100, concurrent: 1000 };
const TOKEN = 'bench-gateway-token';
const log = (message) => process.stderr.write(`[gateway] ${message}\n`);

/** A child that prints its URL on its first stdout line: resolves with `{ child, url }`. */
function startUrlChild(argv) {
  const child = spawn(process.execPath, argv, { env: smallEnv(), stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve({ child, url: line.trim() });
    });
    child.on('exit', (code) => reject(new Error(`${argv[0]} exited with ${code}`)));
  });
}
// The fast HTTP upstream (its own process), and the HTTP floor in front of it.
const fastHttp = await startUrlChild([FAST_HTTP]);
const httpFloor = await startUrlChild([HTTP_RELAY, 'fasthttp', fastHttp.url]);

const dir = mkdtempSync(path.join(tmpdir(), 'agentwire-bench-gateway-'));
const config = path.join(dir, 'servers.json');
const UPSTREAMS = {
  everything: {
    command: process.execPath,
    args: [EVERYTHING, 'stdio'],
    tool: 'echo',
    input: { message: 'hi' },
  },
  fast: { command: process.execPath, args: [FAST_STDIO], tool: 'echo', input: { message: 'hi' } },
  busy: { command: process.execPath, args: [BUSY_STDIO], tool: 'echo', input: { message: 'hi' } },
};
writeFileSync(
  config,
  JSON.stringify({
    gateway: { bearerTokenEnv: 'BENCH_GATEWAY_TOKEN' },
    mcpServers: {
      ...Object.fromEntries(
        Object.entries(UPSTREAMS).map(([name, { command, args: argv }]) => [name, { command, args: argv }]),
      ),
      fasthttp: { url: fastHttp.url },
    },
  }),
);
UPSTREAMS.fasthttp = { url: fastHttp.url, tool: 'echo', input: { message: 'hi' } };

/** `agentwire serve` over HTTP: resolves with its URL once it serves. */
function startHttpGateway() {
  const child = spawn(process.execPath, [MAIN, 'serve', '--config', config, '--port', '0'], {
    env: smallEnv({ BENCH_GATEWAY_TOKEN: TOKEN }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const url = /serving on (\S+)/.exec(stderr)?.[1];
      if (url) resolve({ child, url });
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
}

/** Child pids of this process (Linux: pgrep), to find the stdio gateway the client spawned. */
function childPids() {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid)])
      .toString()
      .trim()
      .split('\n')
      .map(Number);
  } catch {
    return [];
  }
}
/** CPU time of process `pid` so far, in µs (utime + stime of /proc/<pid>/stat), or NaN off Linux. */
function cpuUs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return Number.NaN;
  }
}

const clients = {};
const floorPids = {};
for (const [name, { command, args: argv, url }] of Object.entries(UPSTREAMS)) {
  if (url !== undefined) {
    clients[`direct ${name}`] = MCPClient.fromUrl(url, { name });
    clients[`floor ${name}`] = MCPClient.fromUrl(httpFloor.url, { name: `floor-${name}` });
    floorPids[name] = httpFloor.child.pid;
    continue;
  }
  clients[`direct ${name}`] = MCPClient.fromStdio({ command, args: argv, env: smallEnv() }, { name });
  clients[`floor ${name}`] = MCPClient.fromStdio(
    { command: process.execPath, args: [LINE_RELAY, name, command, ...argv], env: smallEnv() },
    { name: `floor-${name}` },
  );
}
clients['gateway stdio'] = MCPClient.fromStdio(
  { command: process.execPath, args: [MAIN, 'serve', '--stdio', '--config', config], env: smallEnv() },
  { name: 'gateway-stdio' },
);
const http = await startHttpGateway();
clients['gateway http'] = MCPClient.fromUrl(http.url, {
  name: 'gateway-http',
  headers: { authorization: `Bearer ${TOKEN}` },
});
/** Connects `client`; resolves with the pid of the one child process its connect added. */
async function connectChild(client) {
  const before = childPids();
  await client.connect();
  return childPids().find((pid) => !before.includes(pid) && pid !== http.child.pid);
}
await Promise.all(
  Object.entries(clients)
    .filter(([one]) => one.startsWith('direct') || one === 'gateway http' || one === 'floor fasthttp')
    .map(([, client]) => client.connect()),
);
// The middle processes: found one at a time, as the child each connect adds (HTTP's is http.child).
for (const name of Object.keys(UPSTREAMS))
  if (UPSTREAMS[name].url === undefined) floorPids[name] = await connectChild(clients[`floor ${name}`]);
const stdioGatewayPid = await connectChild(clients['gateway stdio']);
/** The process in the middle of path `one` for upstream `name`, whose CPU time is measured. */
const middlePid = (one, name) =>
  one === 'floor'
    ? floorPids[name]
    : { 'gateway stdio': stdioGatewayPid, 'gateway http': http.child.pid }[one];

/** The calls of one path: [client, tool, input] per upstream. */
const PATHS = {
  direct: (name) => [clients[`direct ${name}`], UPSTREAMS[name].tool],
  floor: (name) => [clients[`floor ${name}`], `${name}__${UPSTREAMS[name].tool}`],
  'gateway stdio': (name) => [clients['gateway stdio'], `${name}__${UPSTREAMS[name].tool}`],
  'gateway http': (name) => [clients['gateway http'], `${name}__${UPSTREAMS[name].tool}`],
};
const MIDDLE = ['floor', 'gateway stdio', 'gateway http'];

const THROUGHPUT = quick
  ? { rounds: 1, seconds: 2, concurrency: 32, threads: 2 }
  : { rounds: 3, seconds: 5, concurrency: 32, threads: 2 };
const WRK = process.env.WRK ?? '/usr/bin/wrk';
const WRK_SCRIPT = path.join(here, 'fixtures', 'wrk-mcp.lua');

/** CPU time of this process's waited-for children so far, in µs (cutime + cstime): the load generator's. */
function childrenCpuUs() {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10_000;
}

/**
 * The load generator: wrk (fixtures/wrk-mcp.lua), `THROUGHPUT.threads` threads keeping `concurrency`
 * kept-alive connections busy with 2026-07-28 `tools/call` for `seconds`; with several targets each thread
 * sends to one of them (the load generator is its own balancer: nothing else stands in between). A C event
 * loop, so that its own CPU per call is small next to the processes measured (it is reported). Resolves
 * with calls per second, p50 / p99 latency (µs), failed requests and the load generator's CPU time.
 */
async function load(targets, tool, seconds, concurrency) {
  const ports = targets.map((one) => new URL(one).port).join(' ');
  const cpuStart = childrenCpuUs();
  const out = await new Promise((resolve, reject) => {
    const child = spawn(
      WRK,
      [`-t${THROUGHPUT.threads}`, `-c${concurrency}`, `-d${seconds}s`, '-s', WRK_SCRIPT, targets[0]],
      { env: smallEnv({ TOOL: tool, TOKEN, PORTS: ports }), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited with ${code}`))));
  });
  const line = out.split('\n').find((one) => one.startsWith('{'));
  const run = JSON.parse(line);
  const ok = run.requests - run.non2xx;
  return {
    callsPerSecond: ok / (run.durationUs / 1e6),
    calls: ok,
    p50Us: run.p50Us,
    p99Us: run.p99Us,
    failed: run.non2xx + run.socketErrors,
    loadCpuUs: childrenCpuUs() - cpuStart,
  };
}

/**
 * Throughput with the fast HTTP upstream: directly, through the HTTP floor, through one `serve` process and
 * through two, taking turns in rounds; CPU per call of the middle processes, of the upstream and of the
 * load generator (from /proc); the load average before and after.
 */
async function throughput() {
  const second = await startHttpGateway();
  try {
    const configs = {
      direct: { targets: [fastHttp.url], tool: 'echo', pids: [] },
      floor: { targets: [httpFloor.url], tool: 'fasthttp__echo', pids: [httpFloor.child.pid] },
      'one process': { targets: [http.url], tool: 'fasthttp__echo', pids: [http.child.pid] },
      'two processes': {
        targets: [http.url, second.url],
        tool: 'fasthttp__echo',
        pids: [http.child.pid, second.child.pid],
      },
    };
    const upstreamPid = fastHttp.child.pid;
    const loadBefore = loadavg().map((value) => round(value, 2));
    const samples = Object.fromEntries(
      Object.keys(configs).map((one) => [
        one,
        { rates: [], p50: [], p99: [], cpu: 0, upstreamCpu: 0, loadCpu: 0, calls: 0, failed: 0, loads: [] },
      ]),
    );
    // Warm-up: every path once (the gateways' JIT, their learnt fast path, the kept-alive connections).
    for (const { targets, tool } of Object.values(configs))
      await load(targets, tool, 2, THROUGHPUT.concurrency);
    for (let r = 0; r < THROUGHPUT.rounds; r++) {
      for (const one of rotate(Object.keys(configs), r)) {
        const { targets, tool, pids } = configs[one];
        const cpuStart = pids.reduce((sum, pid) => sum + cpuUs(pid), 0);
        const upstreamStart = cpuUs(upstreamPid);
        const run = await load(targets, tool, THROUGHPUT.seconds, THROUGHPUT.concurrency);
        const sample = samples[one];
        sample.cpu += pids.reduce((sum, pid) => sum + cpuUs(pid), 0) - cpuStart;
        sample.upstreamCpu += cpuUs(upstreamPid) - upstreamStart;
        sample.loadCpu += run.loadCpuUs;
        sample.calls += run.calls;
        sample.failed += run.failed;
        sample.rates.push(run.callsPerSecond);
        sample.p50.push(run.p50Us);
        sample.p99.push(run.p99Us);
        sample.loads.push(round(loadavg()[0], 2));
      }
    }
    const out = {
      loadGenerator: `wrk -t${THROUGHPUT.threads} -c${THROUGHPUT.concurrency} (fixtures/wrk-mcp.lua)`,
      concurrency: THROUGHPUT.concurrency,
      seconds: THROUGHPUT.seconds,
      rounds: THROUGHPUT.rounds,
      loadBefore,
    };
    const directP50 = median(samples.direct.p50);
    const directP99 = median(samples.direct.p99);
    for (const [one, sample] of Object.entries(samples)) {
      const p50 = median(sample.p50);
      const p99 = median(sample.p99);
      const perCall = (us) => round(us / sample.calls);
      out[one] = {
        callsPerSecond: round(median(sample.rates), 0),
        callsPerSecondRounds: sample.rates.map((rate) => round(rate, 0)),
        p50Us: round(p50),
        p99Us: round(p99),
        addedP50Us: one === 'direct' ? 0 : round(p50 - directP50),
        addedP99Us: one === 'direct' ? 0 : round(p99 - directP99),
        // The relay's for "floor", the gateway processes' (added up) for the gateway paths.
        middleCpuPerCallUs: one === 'direct' ? 0 : perCall(sample.cpu),
        upstreamCpuPerCallUs: perCall(sample.upstreamCpu),
        loadGeneratorCpuPerCallUs: perCall(sample.loadCpu),
        totalCpuPerCallUs: perCall(sample.cpu + sample.upstreamCpu + sample.loadCpu),
        loadAverages: sample.loads,
        failed: sample.failed,
      };
    }
    out.loadAfter = loadavg().map((value) => round(value, 2));
    return out;
  } finally {
    second.child.kill('SIGTERM');
    await new Promise((resolve) => second.child.once('exit', resolve));
  }
}

const results = { meta: runMeta('node bench/gateway.mjs'), counts: COUNTS, upstreams: {} };
try {
  // `--throughput-only`: the wrk runs alone (a CPU-per-call check between two builds).
  for (const name of args.includes('--throughput-only') ? [] : Object.keys(UPSTREAMS)) {
    const input = UPSTREAMS[name].input;
    const samples = Object.fromEntries(Object.keys(PATHS).map((one) => [one, []]));
    const cpu = Object.fromEntries(MIDDLE.map((one) => [one, 0]));
    for (const route of Object.values(PATHS)) {
      const [client, tool] = route(name);
      for (let i = 0; i < COUNTS.warmup; i++) await client.callTool(tool, input);
    }
    for (let r = 0; r < COUNTS.rounds; r++) {
      for (const one of rotate(Object.keys(PATHS), r)) {
        const [client, tool] = PATHS[one](name);
        const pid = middlePid(one, name);
        const cpuStart = pid === undefined ? 0 : cpuUs(pid);
        for (let i = 0; i < COUNTS.perRound; i++) {
          const start = performance.now();
          await client.callTool(tool, input);
          samples[one].push(usSince(start));
        }
        if (pid !== undefined) cpu[one] += cpuUs(pid) - cpuStart;
      }
    }
    const concurrent = {};
    for (const one of Object.keys(PATHS)) {
      const [client, tool] = PATHS[one](name);
      const start = performance.now();
      await Promise.all(Array.from({ length: COUNTS.concurrent }, () => client.callTool(tool, input)));
      concurrent[one] = usSince(start) / 1000;
    }
    const medianUs = Object.fromEntries(
      Object.entries(samples).map(([one, list]) => [one, round(median(list))]),
    );
    const p90Us = Object.fromEntries(
      Object.entries(samples).map(([one, list]) => [one, round(quantile(list, 0.9))]),
    );
    results.upstreams[name] = {
      roundTripMedianUs: medianUs,
      roundTripP90Us: p90Us,
      middleCpuPerCallUs: Object.fromEntries(
        Object.entries(cpu).map(([one, us]) => [one, round(us / (COUNTS.rounds * COUNTS.perRound))]),
      ),
      roundTripRatio: Object.fromEntries(
        MIDDLE.map((one) => [`${one} / direct`, ratio(medianUs[one], medianUs.direct)]),
      ),
      concurrentWallMs: Object.fromEntries(Object.entries(concurrent).map(([one, ms]) => [one, round(ms)])),
      concurrentRatio: Object.fromEntries(
        MIDDLE.map((one) => [`${one} / direct`, ratio(concurrent[one], concurrent.direct)]),
      ),
    };
    log(`${name}: ${JSON.stringify(results.upstreams[name])}`);
  }
} finally {
  await Promise.allSettled(Object.values(clients).map((client) => client.disconnect()));
  try {
    results.throughput = await throughput();
    log(`throughput: ${JSON.stringify(results.throughput)}`);
  } finally {
    for (const one of [http, fastHttp, httpFloor]) {
      one.child.kill('SIGTERM');
      if (one.child.exitCode === null) await new Promise((resolve) => one.child.once('exit', resolve));
    }
  }
  rmSync(dir, { recursive: true, force: true });
}
process.stdout.write(
  `${JSON.stringify({ ...results.upstreams, throughput: results.throughput }, null, 2)}\n`,
);
if (!args.includes('--no-write')) {
  const file = path.join(here, 'results-gateway.json');
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  // The file is committed: the repo's formatter lays it out so that `npm run lint` passes as written.
  try {
    execFileSync(path.join(root, 'node_modules', '.bin', 'biome'), ['format', '--write', file], {
      stdio: 'ignore',
    });
  } catch {
    log('biome format failed; run `npx biome format --write bench`');
  }
}
