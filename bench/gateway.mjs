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
// `serve --port`. Then throughput with that upstream: a raw load generator (32 kept-alive connections,
// 2026-07-28 tools/call) directly, through the floor, through one `serve --port` process and through two
// (the load generator spreads the requests round robin), taking turns in rounds: calls per second, p50 /
// p99 latency and what the middle adds to them, the middle processes' CPU per call, the load average.
// Writes bench/results-gateway.json.
//   AGENTWIRE_DIST=<dir> measures another build (e.g. the one before a change) with this same script.
//   npm run build && node --no-warnings bench/gateway.mjs [--quick] [--no-write]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
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
  ? { rounds: 1, seconds: 2, concurrency: 32 }
  : { rounds: 3, seconds: 4, concurrency: 32 };
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench-load', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/**
 * The load generator: `concurrency` raw 2026-07-28 `tools/call` requests kept in flight for `seconds` over
 * kept-alive connections, spread round robin over `targets` (the load generator is its own balancer, so
 * nothing else stands between it and the gateway processes). Resolves with calls per second and latencies.
 */
async function load(targets, tool, seconds, concurrency) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const urls = targets.map((one) => new URL(one));
  const latencies = [];
  let next = 0;
  let failed = 0;
  const until = performance.now() + seconds * 1000;
  const one = (id) =>
    new Promise((resolve) => {
      const url = urls[next++ % urls.length];
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: tool, arguments: { message: 'hi' }, _meta: ENVELOPE },
      });
      const start = performance.now();
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          agent,
          headers: {
            authorization: `Bearer ${TOKEN}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'content-length': Buffer.byteLength(body),
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': tool,
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            if (res.statusCode === 200) latencies.push(usSince(start));
            else failed += 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        failed += 1;
        resolve();
      });
      req.end(body);
    });
  const start = performance.now();
  let id = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) await one(id++);
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  return { callsPerSecond: latencies.length / elapsed, latencies, failed };
}

/**
 * Throughput with the fast HTTP upstream: directly, through the HTTP floor, through one `serve` process and
 * through two, taking turns in rounds; the gateway processes' CPU per call from /proc; the load average before and after.
 */
async function throughput() {
  const second = await startHttpGateway();
  try {
    const configs = {
      direct: { targets: [fastHttp.url], tool: 'echo', pids: [fastHttp.child.pid] },
      floor: { targets: [httpFloor.url], tool: 'fasthttp__echo', pids: [httpFloor.child.pid] },
      'one process': { targets: [http.url], tool: 'fasthttp__echo', pids: [http.child.pid] },
      'two processes': {
        targets: [http.url, second.url],
        tool: 'fasthttp__echo',
        pids: [http.child.pid, second.child.pid],
      },
    };
    const loadBefore = loadavg().map((value) => round(value, 2));
    const samples = Object.fromEntries(
      Object.keys(configs).map((one) => [one, { rates: [], latencies: [], cpu: 0, calls: 0, failed: 0 }]),
    );
    // Warm-up: every path once.
    for (const { targets, tool } of Object.values(configs))
      await load(targets, tool, 1, THROUGHPUT.concurrency);
    for (let r = 0; r < THROUGHPUT.rounds; r++) {
      for (const one of rotate(Object.keys(configs), r)) {
        const { targets, tool, pids } = configs[one];
        const cpuStart = pids.reduce((sum, pid) => sum + cpuUs(pid), 0);
        const run = await load(targets, tool, THROUGHPUT.seconds, THROUGHPUT.concurrency);
        const sample = samples[one];
        sample.cpu += pids.reduce((sum, pid) => sum + cpuUs(pid), 0) - cpuStart;
        sample.calls += run.latencies.length;
        sample.failed += run.failed;
        sample.rates.push(run.callsPerSecond);
        sample.latencies.push(...run.latencies);
      }
    }
    const out = {
      concurrency: THROUGHPUT.concurrency,
      seconds: THROUGHPUT.seconds,
      rounds: THROUGHPUT.rounds,
      loadBefore,
    };
    const direct = samples.direct;
    for (const [one, sample] of Object.entries(samples)) {
      const p50 = quantile(sample.latencies, 0.5);
      const p99 = quantile(sample.latencies, 0.99);
      out[one] = {
        callsPerSecond: round(median(sample.rates), 0),
        p50Us: round(p50),
        p99Us: round(p99),
        addedP50Us: one === 'direct' ? 0 : round(p50 - quantile(direct.latencies, 0.5)),
        addedP99Us: one === 'direct' ? 0 : round(p99 - quantile(direct.latencies, 0.99)),
        // The upstream's for "direct", the relay's for "floor", the gateway processes' (added up) otherwise.
        cpuPerCallUs: round(sample.cpu / sample.calls),
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
  for (const name of Object.keys(UPSTREAMS)) {
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
