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
