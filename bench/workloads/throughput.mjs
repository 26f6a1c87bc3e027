// Workload 2: `calls` concurrent tools/call requests over one connection, per transport, against the fast
// fixture. Each client runs its bursts in a fresh process of its own (the `burst` task of child-tasks.mjs),
// one process per client per round, clients taking turns in an order rotated each round: run in one shared
// process, a client paid for the garbage and the socket pools the clients before it left behind.
// Reported per client: the median total time of a burst, p50 / p99 of the per-call latency over all bursts,
// the client's CPU per call, and any process warning (e.g. MaxListenersExceededWarning) raised in its bursts.
import { runChild } from '../lib/child.mjs';
import { ADAPTERS } from '../lib/clients.mjs';
import { median, quantile, rotate } from '../lib/stats.mjs';

/** Sums warning counts by message over the rounds. */
function addWarnings(into, warnings) {
  for (const { message, count } of warnings ?? []) into.set(message, (into.get(message) ?? 0) + count);
}

async function scenario(transport, { calls, rounds, warmup = 1, warmupMs = 1_000, bursts = 3 }) {
  const runs = new Map(
    ADAPTERS.map((a) => [a.id, { totals: [], latencies: [], cpu: [], warnings: new Map() }]),
  );
  const failed = new Map();
  for (let r = 0; r < rounds; r++) {
    for (const adapter of rotate(ADAPTERS, r)) {
      if (failed.has(adapter.id)) continue;
      const out = await runChild(
        'burst',
        adapter.id,
        { transport, calls, warmup, warmupMs, bursts },
        { timeoutMs: warmupMs + (warmup + bursts) * 30_000 + 30_000 },
      );
      if (out.error !== undefined) {
        failed.set(adapter.id, out.error);
        continue;
      }
      const run = runs.get(adapter.id);
      run.totals.push(...out.totals);
      run.latencies.push(...out.latencies);
      run.cpu.push(out.cpuUsPerCall);
      addWarnings(run.warnings, out.warnings);
    }
  }
  const clients = {};
  for (const { id } of ADAPTERS) {
    const run = runs.get(id);
    if (run.totals.length === 0 && failed.has(id)) {
      clients[id] = { error: failed.get(id) };
      continue;
    }
    clients[id] = {
      totalMs: median(run.totals),
      p50Us: quantile(run.latencies, 0.5),
      p99Us: quantile(run.latencies, 0.99),
      cpuUsPerCall: median(run.cpu),
      bursts: run.totals.length,
      processes: run.cpu.length,
      warnings: [...run.warnings].map(([message, count]) => ({ message, count })),
      ...(failed.has(id) ? { error: failed.get(id) } : {}),
    };
  }
  return { transport, calls, clients };
}

/**
 * Runs workload 2 over stdio and over HTTP; `counts` = { calls, rounds, warmup?, warmupMs?, bursts? }: per
 * round, each client's process runs warm-up bursts (at least `warmup`, default 1, and for at least `warmupMs`,
 * default 1 000) then `bursts` measured ones (default 3).
 */
export async function runThroughput(counts) {
  return [await scenario('stdio', counts), await scenario('http', counts)];
}
