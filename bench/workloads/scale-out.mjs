// Workload 12: more than one server process. The 2026-07-28 fixture server over Streamable HTTP
// (bench/fixtures/era2026-http.mjs with BENCH_REDIS_URL: the official SDK's `createMcpHandler`, its
// subscriptions/listen events on the Redis event bus of dist/gateway/redis-event-bus.js) as separate
// processes on one real Redis (`redis-server` on a free port), behind a trivial round-robin balancer
// (bench/fixtures/round-robin.mjs, a process of its own). Two balancers run side by side: one in front of one
// server process, one in front of two (the first and another), so both configurations pay the same hop.
// An agentwire MCPClient (dist/) per balancer sends bursts of `calls` concurrent `echo` tools/call; the two
// take turns in rounds (the first rotating), so load drifts hit both alike. Reported per configuration: the
// median burst time and calls per second over the bursts, and two processes / one as a ratio of the same run.
//
// The server process is replaceable (e.g. by `agentwire serve`): BENCH_SCALE_OUT_SERVER is a command line
// (split on spaces; `{redis}` is replaced by the Redis URL) that starts one process serving MCP over HTTP and
// prints its endpoint URL (`http://…/<path>`) on stdout. BENCH_SCALE_OUT_TOKEN, when set, is handed to that
// process and sent by the clients as a bearer token. With the gateway:
//   BENCH_SCALE_OUT_TOKEN=bench-token BENCH_SCALE_OUT_SERVER='node bench/fixtures/serve-gateway.mjs {redis}' \
//     node --no-warnings bench/workloads/scale-out.mjs --merge
//   npm run build && node --no-warnings bench/workloads/scale-out.mjs [--quick] [--merge]
// (--merge: into bench/results.json and this workload's section of bench/RESULTS.md; without it, JSON on
// stdout). run.mjs runs it as workload 12.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SCALE_OUT, withSection } from '../lib/kept-section.mjs';
import { smallEnv } from '../lib/servers.mjs';
import { median, ratio, rotate, round } from '../lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..', '..');
const SERVER = path.join(here, '..', 'fixtures', 'era2026-http.mjs');
const BALANCER = path.join(here, '..', 'fixtures', 'round-robin.mjs');
/** Unmeasured bursts per balancer before the rounds. */
const WARMUP_BURSTS = 3;

/** Starts `command` and resolves with the first stdout match of `pattern`, and a `stop()`. */
function startChild(command, args, env, pattern, what) {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what} did not start within 30 s: ${err}`));
    }, 30_000);
    child.stderr.on('data', (chunk) => {
      err += chunk;
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited ${code}: ${err}`));
    });
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const found = out.match(pattern)?.[0];
      if (found === undefined) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolve({ found, stop });
    });
  });
}

/** A Redis on a free port, no persistence; resolves to `{ url, stop() }`. */
async function startRedis() {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  const dir = mkdtempSync(path.join(tmpdir(), 'agentwire-bench-redis-'));
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
  ];
  const { stop } = await startChild(
    'redis-server',
    args,
    process.env,
    /Ready to accept connections/,
    'redis-server',
  );
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One server process on `redisUrl`; resolves to `{ url, stop() }`. */
async function startServer(redisUrl) {
  const custom = process.env.BENCH_SCALE_OUT_SERVER;
  const [command, ...args] =
    custom === undefined
      ? [process.execPath, SERVER]
      : custom.split(' ').map((part) => part.replaceAll('{redis}', redisUrl));
  const token = process.env.BENCH_SCALE_OUT_TOKEN;
  const env = smallEnv({ BENCH_REDIS_URL: redisUrl, ...(token && { BENCH_SCALE_OUT_TOKEN: token }) });
  const { found, stop } = await startChild(command, args, env, /http:\/\/\S+/, 'the server process');
  return { url: found, stop };
}

/** A balancer in front of `servers`; resolves to `{ url, stop() }`, `url` the servers' endpoint through it. */
async function startBalancer(servers) {
  const env = smallEnv({ BENCH_BACKENDS: servers.map((s) => new URL(s.url).origin).join(',') });
  const { found, stop } = await startChild(process.execPath, [BALANCER], env, /http:\/\/\S+/, 'the balancer');
  return { url: `${found}${new URL(servers[0].url).pathname}`, stop };
}

async function agentwire() {
  const dir = process.env.AGENTWIRE_DIST;
  if (dir === undefined) return import('../../dist/index.js');
  return import(pathToFileURL(path.resolve(dir, 'index.js')).href);
}

/** One burst of `calls` concurrent `echo` calls; its wall time in ms. Throws on any wrong answer. */
async function burst(client, calls) {
  const start = performance.now();
  const results = await Promise.all(
    Array.from({ length: calls }, (_, i) => client.callTool('echo', { text: `call ${i}` })),
  );
  const ms = performance.now() - start;
  results.forEach((result, i) => {
    if (result.content?.[0]?.text !== `echo: call ${i}`) throw new Error(`call ${i} answered wrongly`);
  });
  return ms;
}

/** Runs workload 12; `counts` = { calls, rounds, bursts }. */
export async function runScaleOut({ calls, rounds, bursts }, log = () => {}) {
  const started = [];
  const loadAtStart = loadavg().map((load) => round(load, 2));
  try {
    const redis = await startRedis();
    started.push(redis);
    const servers = await Promise.all([startServer(redis.url), startServer(redis.url)]);
    started.push(...servers);
    const balancers = { one: await startBalancer(servers.slice(0, 1)), two: await startBalancer(servers) };
    started.push(balancers.one, balancers.two);
    const { MCPClient } = await agentwire();
    const clients = {};
    for (const [id, balancer] of Object.entries(balancers)) {
      const token = process.env.BENCH_SCALE_OUT_TOKEN;
      clients[id] = MCPClient.fromUrl(balancer.url, {
        name: `scale-out-${id}`,
        ...(token && { headers: { authorization: `Bearer ${token}` } }),
      });
      started.push({ stop: () => clients[id].disconnect() });
      await clients[id].connect();
      // Warm-up (JIT, sockets): the second server process gets traffic only from the second balancer, so
      // each balancer's client runs a few bursts before any is measured.
      for (let i = 0; i < WARMUP_BURSTS; i++) await burst(clients[id], calls);
    }
    const totals = { one: [], two: [] };
    for (let r = 0; r < rounds; r++) {
      for (const id of rotate(['one', 'two'], r)) {
        for (let b = 0; b < bursts; b++) totals[id].push(await burst(clients[id], calls));
      }
      log(`workload 12: round ${r + 1}/${rounds}`);
    }
    const figure = (list) => ({
      burstMs: round(median(list)),
      callsPerSecond: round((calls / median(list)) * 1000, 0),
      bursts: list.length,
    });
    const one = figure(totals.one);
    const two = figure(totals.two);
    return {
      calls,
      rounds,
      cores: availableParallelism(),
      loadAtEnd: round(loadavg()[0], 2),
      loadAverages: { start: loadAtStart, end: loadavg().map((load) => round(load, 2)) },
      custom: process.env.BENCH_SCALE_OUT_SERVER ?? null,
      one,
      two,
      ratio: ratio(two.callsPerSecond, one.callsPerSecond),
    };
  } finally {
    for (const item of started.reverse()) await item.stop().catch(() => {});
  }
}

/** This workload's section of RESULTS.md, between its markers. */
export function renderScaleOut(s) {
  const server =
    s.custom === null
      ? 'the 2026-07-28 fixture server (`createMcpHandler` of @modelcontextprotocol/server 2.4.0, Redis event bus)'
      : `\`${s.custom}\``;
  return [
    SCALE_OUT[0],
    '## 12. More than one server process (2026-07-28 over Streamable HTTP, events on Redis)\n',
    ...(s.measuredAt ? [`Measured ${s.measuredAt} (\`${s.command}\`, merged into this report).\n`] : []),
    `Server process: ${server}; one real Redis; a round-robin balancer process in front of one server process and another in front of two. Each burst is ${s.calls} concurrent \`echo\` tools/call from one agentwire client; medians of ${s.one.bursts} bursts per configuration, the configurations taking turns in ${s.rounds} rounds, on a machine with ${s.cores} cores (1-minute load average ${s.loadAtEnd} at the end).\n`,
    '| server processes | median burst | calls per second | two / one |\n|---|---|---|---|',
    `| one | ${s.one.burstMs} ms | ${s.one.callsPerSecond} | — |`,
    `| two | ${s.two.burstMs} ms | ${s.two.callsPerSecond} | ${s.ratio}× |\n`,
    ...(s.loadAverages
      ? [
          `Machine load (\`uptime\` load averages over 1, 5 and 15 minutes): ${s.loadAverages.start.join(', ')} at the start, ${s.loadAverages.end.join(', ')} at the end, on ${s.cores} cores shared with other work.\n`,
        ]
      : []),
    'The client, the balancer, Redis and the server processes share the cores: a second server process adds throughput only where a core is left for it, so on a 2-core machine busy with other work (the load average above) the ratio is bound by noise; quote it from a machine with a core per process.',
    SCALE_OUT[1],
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  const counts = quick ? { calls: 100, rounds: 1, bursts: 2 } : { calls: 200, rounds: 10, bursts: 1 };
  const log = (message) => process.stderr.write(`[scale-out] ${message}\n`);
  const result = await runScaleOut(counts, log);
  if (!process.argv.includes('--merge')) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    const custom = process.env.BENCH_SCALE_OUT_SERVER;
    const token = process.env.BENCH_SCALE_OUT_TOKEN ? 'BENCH_SCALE_OUT_TOKEN=<any> ' : '';
    const command = `${token}${custom === undefined ? '' : `BENCH_SCALE_OUT_SERVER='${custom}' `}node bench/workloads/scale-out.mjs${quick ? ' --quick' : ''} --merge`;
    const file = path.join(root, 'bench', 'results.json');
    const results = JSON.parse(readFileSync(file, 'utf8'));
    results.workloads.scaleOut = { ...result, measuredAt: new Date().toISOString(), command };
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    const report = path.join(root, 'bench', 'RESULTS.md');
    writeFileSync(
      report,
      withSection(readFileSync(report, 'utf8'), renderScaleOut(results.workloads.scaleOut), SCALE_OUT),
    );
    // Both files are committed and must pass `npm run lint` as written (as run.mjs does).
    execFileSync(path.join(root, 'node_modules', '.bin', 'biome'), ['format', '--write', file, report], {
      stdio: 'ignore',
    });
    log('merged workload 12 into bench/results.json and bench/RESULTS.md');
  }
}
