// Workload 2: `calls` concurrent tools/call requests over one connection, per transport, against the fast
// fixture. Reported per client: the median total time of a burst, and p50 / p99 of the per-call latency
// over all bursts; also any process warning (e.g. MaxListenersExceededWarning) raised during its bursts.
import { ADAPTERS } from '../lib/clients.mjs';
import { fastStdio, startFastHttp } from '../lib/servers.mjs';
import { median, quantile, rotate } from '../lib/stats.mjs';

async function burst(conn, calls) {
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

async function scenario(transport, connect, { calls, rounds }) {
  const conns = [];
  const clients = {};
  for (const adapter of ADAPTERS) {
    try {
      conns.push({ adapter, conn: await connect(adapter) });
    } catch (error) {
      clients[adapter.id] = { error: String(error?.message ?? error) };
    }
  }
  let current;
  // Node emits each kind of listener-leak warning once per emitter; keep the distinct messages (numbers
  // stripped) and how often each came, per client.
  const warnings = new Map(conns.map(({ adapter }) => [adapter.id, new Map()]));
  const onWarning = (w) => {
    const into = current && warnings.get(current);
    if (!into) return;
    const key = `${w.name}: ${w.message}`.replace(/\d+/g, 'N').slice(0, 160);
    into.set(key, (into.get(key) ?? 0) + 1);
  };
  process.on('warning', onWarning);
  const totals = new Map(conns.map(({ adapter }) => [adapter.id, []]));
  const latencies = new Map(conns.map(({ adapter }) => [adapter.id, []]));
  const failed = new Map();
  try {
    for (const { conn } of conns) await conn.call('echo', { message: 'warm' });
    for (let r = 0; r <= rounds; r++) {
      for (const { adapter, conn } of rotate(conns, r)) {
        if (failed.has(adapter.id)) continue;
        current = adapter.id;
        try {
          const result = await burst(conn, calls);
          // Round 0 is a warm-up burst: it pays for JIT and socket pools.
          if (r > 0) {
            totals.get(adapter.id).push(result.totalMs);
            latencies.get(adapter.id).push(...result.latencies);
          }
        } catch (error) {
          failed.set(adapter.id, String(error?.message ?? error));
        }
        // Warnings are emitted on a later tick.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  } finally {
    current = undefined;
    process.off('warning', onWarning);
    for (const { conn } of conns) await conn.close().catch(() => {});
  }
  for (const { adapter } of conns) {
    const l = latencies.get(adapter.id);
    clients[adapter.id] = {
      totalMs: median(totals.get(adapter.id)),
      p50Us: quantile(l, 0.5),
      p99Us: quantile(l, 0.99),
      bursts: totals.get(adapter.id).length,
      warnings: [...warnings.get(adapter.id)].map(([message, count]) => ({ message, count })),
      ...(failed.has(adapter.id) ? { error: failed.get(adapter.id) } : {}),
    };
  }
  return { transport, calls, clients };
}

/** Runs workload 2; `counts` = { calls, rounds }. */
export async function runThroughput(counts) {
  const out = [await scenario('stdio', (a) => a.stdio(fastStdio()), counts)];
  const fast = await startFastHttp();
  try {
    out.push(await scenario('http', (a) => a.http(fast.url), counts));
  } finally {
    await fast.stop();
  }
  return out;
}
