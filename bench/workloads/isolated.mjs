// Workloads 3, 4 and 5, each client in a process of its own (see lib/child.mjs), clients taking turns.
import { runChild } from '../lib/child.mjs';
import { ADAPTERS } from '../lib/clients.mjs';
import { rotate } from '../lib/stats.mjs';

const MiB = 1024 * 1024;

/** Workload 3: large results over stdio; `sizes` = [{ kind, mib }]; `counts` = { maxCalls, budgetMs }. */
export async function runLarge(sizes, { maxCalls, budgetMs }) {
  const out = [];
  for (const { kind, mib } of sizes) {
    const clients = {};
    // Rotating the start keeps the order from favouring one client across sizes.
    for (const a of rotate(ADAPTERS, out.length)) {
      clients[a.id] = await runChild(
        'large',
        a.id,
        { kind, bytes: mib * MiB, transport: 'stdio', maxCalls, budgetMs },
        { timeoutMs: budgetMs * 3 + 90_000 },
      );
    }
    out.push({ kind, mib, transport: 'stdio', clients });
  }
  return out;
}

/**
 * Workload 3's scaling goal: 20 and 40 MiB interleaved in one process per client (the floor and agentwire;
 * the peers that survive 20 MiB take seconds per call), so that the ratio is not two separate processes'
 * noise.
 */
export async function runScaling({ rounds }) {
  const clients = {};
  for (const id of ['floor', 'agentwire']) {
    clients[id] = await runChild('scaling', id, { mibs: [20, 40], rounds }, { timeoutMs: 300_000 });
  }
  return { mibs: [20, 40], rounds, clients };
}

/** Workload 4: a server with `tools` tools. */
export async function runTools({ tools, repeats }) {
  const clients = {};
  for (const adapter of ADAPTERS) {
    clients[adapter.id] = await runChild(
      'tools',
      adapter.id,
      { tools, repeats },
      { nodeArgs: ['--expose-gc'] },
    );
  }
  return { tools, clients };
}

/** Workload 5: `cycles` connect/disconnect cycles of a stdio server. */
export async function runChurn({ cycles }) {
  const clients = {};
  for (const adapter of ADAPTERS) {
    clients[adapter.id] = await runChild(
      'churn',
      adapter.id,
      { cycles },
      { timeoutMs: cycles * 2_000 + 30_000 },
    );
  }
  return { cycles, clients };
}
