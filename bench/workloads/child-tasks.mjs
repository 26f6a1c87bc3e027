// The measurements that need a process of their own (see lib/child.mjs):
//   large  {kind, bytes, transport, maxCalls, budgetMs} -> workload 3: time and peak RSS of large results
//   tools  {tools, repeats}                             -> workload 4: connect + list of many tools, memory,
//                                                          and (agentwire, SDK v2) a list_changed refresh
//   churn  {cycles}                                     -> workload 5: connect/disconnect cycles, leftovers
//   scaling {mibs, rounds}                              -> workload 3: the same, sizes interleaved in one process
//   burst  {transport, calls, warmup, warmupMs, bursts} -> workload 2: bursts of concurrent calls, per-call
//                                                          latency, client CPU and process warnings
// Usage: node child-tasks.mjs <task> <adapterId> <json params>; prints {"bench": …} as its last line.
import { setTimeout as sleep } from 'node:timers/promises';
import { ADAPTERS } from '../lib/clients.mjs';
import { descendants, openFds } from '../lib/proc.mjs';
import { fastStdio, startFastHttp } from '../lib/servers.mjs';
import { median } from '../lib/stats.mjs';

const [task, adapterId, paramsJson] = process.argv.slice(2);
const params = JSON.parse(paramsJson ?? '{}');
const adapter = ADAPTERS.find((a) => a.id === adapterId);
const mib = (bytes) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/** Size in bytes of what a client handed back, whatever its shape (raw result, string, tool message). */
function payloadSize(value) {
  if (typeof value === 'string') return value.length;
  const block = value?.content?.[0] ?? value?.[0];
  return block?.text?.length ?? block?.data?.length ?? JSON.stringify(value ?? null).length;
}

async function large({ kind, bytes, transport, maxCalls, budgetMs }) {
  let http;
  if (transport === 'http') http = await startFastHttp();
  const conn = await (http ? adapter.http(http.url) : adapter.stdio(fastStdio()));
  const name = kind === 'image' ? 'big_image' : 'big_text';
  try {
    await conn.call(name, { bytes: 1024 });
    const rssBefore = process.memoryUsage().rss;
    const times = [];
    let peakDelta;
    let received;
    const started = performance.now();
    while (times.length < maxCalls && (times.length === 0 || performance.now() - started < budgetMs)) {
      const t = performance.now();
      const result = await conn.call(name, { bytes });
      times.push(performance.now() - t);
      received ??= payloadSize(result);
      // maxRSS is in KiB and never goes down: the first call's peak is the one that counts.
      peakDelta ??= process.resourceUsage().maxRSS * 1024 - rssBefore;
    }
    return {
      ms: median(times),
      calls: times.length,
      peakRssDeltaMiB: mib(peakDelta),
      receivedChars: received,
    };
  } finally {
    await conn.close().catch(() => {});
    await http?.stop();
  }
}

function heapNow() {
  globalThis.gc?.();
  globalThis.gc?.();
  return process.memoryUsage();
}

async function refreshAgentwire(conn) {
  const client = conn.raw;
  const before = new Map(client.getTools().map((t) => [t.name, t]));
  const changed = new Promise((resolve) => client.once('toolsChanged', resolve));
  const start = performance.now();
  await conn.call('mutate', { count: 10 });
  const event = await changed;
  const ms = performance.now() - start;
  const kept = event.tools.filter((t) => before.get(t.name) === t).length;
  const changedTools = event.tools.length - kept;
  // A refresh asked for right after the event may join the one that just ended; let it settle first.
  await sleep(100);
  const times = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await client.refreshTools();
    times.push(performance.now() - t);
  }
  return {
    mutateToEventMs: ms,
    refreshToolsMs: median(times),
    kept,
    changed: changedTools,
    added: event.added.length,
    removed: event.removed.length,
  };
}

/** The floor's tools/list round trip for the same list: the time for the list to arrive, parsed. */
async function listFloor(conn) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    await conn.list();
    times.push(performance.now() - t);
  }
  return median(times);
}

async function tools({ tools: count, repeats }) {
  const connectMs = [];
  for (let i = 0; i < repeats; i++) {
    const t = performance.now();
    const conn = await adapter.stdio(fastStdio(count));
    connectMs.push(performance.now() - t);
    await conn.close();
  }
  const before = heapNow();
  const conn = await adapter.stdio(fastStdio(count));
  const after = heapNow();
  let refresh;
  try {
    if (conn.toolCount !== count) throw new Error(`listed ${conn.toolCount} tools, expected ${count}`);
    if (adapter.id === 'agentwire') refresh = await refreshAgentwire(conn);
    if (adapter.id === 'floor') refresh = { listMs: await listFloor(conn) };
  } finally {
    await conn.close();
  }
  return {
    connectMs: median(connectMs),
    heapDeltaMiB: mib(after.heapUsed - before.heapUsed),
    rssDeltaMiB: mib(after.rss - before.rss),
    ...(refresh ? { refresh } : {}),
  };
}

async function churn({ cycles }) {
  // One cycle first, so that lazily loaded modules and pools are not counted as leaks.
  const first = await adapter.stdio(fastStdio());
  const env = JSON.parse(await textOf(first.call('env', {})));
  await first.close();
  await sleep(200);
  const fdsBefore = openFds();
  const times = [];
  const start = performance.now();
  for (let i = 0; i < cycles; i++) {
    const t = performance.now();
    const conn = await adapter.stdio(fastStdio());
    await conn.close();
    times.push(performance.now() - t);
  }
  const totalMs = performance.now() - start;
  const leftNow = { processes: descendants().length, fds: openFds() - fdsBefore };
  await sleep(2_000);
  const leftLater = { processes: descendants().length, fds: openFds() - fdsBefore };
  return { totalMs, cycleMs: median(times), leftNow, leftAfter2s: leftLater, serverEnv: env };
}

async function textOf(promise) {
  const value = await promise;
  if (typeof value === 'string') return value;
  return value?.content?.[0]?.text ?? value?.[0]?.text ?? JSON.stringify(value);
}

/** One burst of `calls` concurrent `echo` calls: its total time and each call's latency in µs. */
async function oneBurst(conn, calls) {
  const latencies = new Array(calls);
  const start = performance.now();
  await Promise.all(
    Array.from({ length: calls }, async (_, i) => {
      await conn.call('echo', { message: `burst ${i}` });
      latencies[i] = (performance.now() - start) * 1000;
    }),
  );
  return { totalMs: performance.now() - start, latencies };
}

/**
 * Lets the previous burst's sockets go idle. Right after a burst, fetch's pool (undici) still counts a third
 * to two thirds of its connections as busy until its next macrotask; a burst started at once opens hundreds
 * of new connections, and the figure measures when undici got round to that, not the client (measured: 0 to
 * 670 new connections per back-to-back burst, 460 to 1 600 ms, for the bare fetch alike).
 */
const settle = () => sleep(10);

async function burst({ transport, calls, warmup, warmupMs, bursts }) {
  // Node emits each kind of listener-leak warning once per emitter; keep the distinct messages (numbers
  // stripped) and how often each came, warm-up bursts included (a fresh process warns in its first burst).
  const warnings = new Map();
  const onWarning = (w) => {
    const key = `${w.name}: ${w.message}`.replace(/\d+/g, 'N').slice(0, 160);
    warnings.set(key, (warnings.get(key) ?? 0) + 1);
  };
  process.on('warning', onWarning);
  const http = transport === 'http' ? await startFastHttp() : undefined;
  const conn = await (http ? adapter.http(http.url) : adapter.stdio(fastStdio()));
  const totals = [];
  const latencies = [];
  let cpuUs = 0;
  try {
    await conn.call('echo', { message: 'warm' });
    // Warm-up bursts pay for JIT and socket pools: at least `warmup` of them and `warmupMs` of bursting. A
    // count alone is not enough: one stdio burst takes ~30 ms, too short for a fresh process to optimise the
    // client's code (measured: agentwire 82 ms per burst after one warm-up burst, 33 ms after five).
    const warmStart = performance.now();
    for (let i = 0; i < warmup || performance.now() - warmStart < warmupMs; i++) {
      await oneBurst(conn, calls);
      await settle();
    }
    for (let i = 0; i < bursts; i++) {
      await settle();
      const cpu = process.cpuUsage();
      const result = await oneBurst(conn, calls);
      const used = process.cpuUsage(cpu);
      cpuUs += used.user + used.system;
      totals.push(result.totalMs);
      for (const l of result.latencies) latencies.push(Math.round(l * 10) / 10);
    }
    // Warnings are emitted on a later tick.
    await settle();
  } finally {
    process.off('warning', onWarning);
    await conn.close().catch(() => {});
    await http?.stop();
  }
  return {
    totals,
    latencies,
    cpuUsPerCall: cpuUs / (bursts * calls),
    warnings: [...warnings].map(([message, count]) => ({ message, count })),
  };
}

/**
 * How time grows with the payload: 20 and 40 MiB text calls interleaved in one process (`rounds` of each,
 * order alternating), so that both sizes meet the same load, heap and pipe; medians per size.
 */
async function scaling({ mibs, rounds }) {
  const conn = await adapter.stdio(fastStdio());
  try {
    await conn.call('big_text', { bytes: 1024 });
    const times = Object.fromEntries(mibs.map((m) => [m, []]));
    for (let r = 0; r < rounds; r++) {
      for (const mib of r % 2 === 0 ? mibs : [...mibs].reverse()) {
        const t = performance.now();
        await conn.call('big_text', { bytes: mib * 1024 * 1024 });
        times[mib].push(performance.now() - t);
      }
    }
    return { rounds, ms: Object.fromEntries(mibs.map((m) => [m, median(times[m])])) };
  } finally {
    await conn.close().catch(() => {});
  }
}

const tasks = { large, tools, churn, burst, scaling };
let line;
try {
  const result = await tasks[task](params);
  line = `${JSON.stringify({ bench: result })}\n`;
} catch (error) {
  line = `${JSON.stringify({ bench: { error: String(error?.message ?? error).slice(0, 300) } })}\n`;
}
// A client that leaves a handle open must not hang the bench; what it left is counted above. Exit once the
// line is flushed: stdout is an asynchronous pipe, and exiting at once cut long lines at 64 KiB.
process.stdout.write(line, () => process.exit(0));
