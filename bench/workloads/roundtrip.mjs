// Workload 1: sequential tools/call round trips, one at a time, against the fast fixture and against
// server-everything's `echo`, over stdio and Streamable HTTP. Every client is connected at once to its own
// copy of the server and they take turns in rounds (the first client rotating), so load drifts on a shared
// machine hit them all alike. Reported: the median round trip in µs per client, the client's CPU per call,
// and agentwire / client.
import { ADAPTERS } from '../lib/clients.mjs';
import { everythingStdio, fastStdio, startEverythingHttp, startFastHttp } from '../lib/servers.mjs';
import { median, quantile, rotate, usSince } from '../lib/stats.mjs';

async function scenario(name, transport, connect, { warmup, rounds, perRound }) {
  const conns = [];
  const failures = {};
  for (const adapter of ADAPTERS) {
    try {
      conns.push({ adapter, conn: await connect(adapter) });
    } catch (error) {
      failures[adapter.id] = String(error?.message ?? error);
    }
  }
  const samples = new Map(conns.map(({ adapter }) => [adapter.id, []]));
  // Client CPU (user + system of this process, whose only other work is the loop itself): unlike wall
  // time it does not depend on how busy the other core is, so it ranks clients on a loaded machine too.
  const cpu = new Map(conns.map(({ adapter }) => [adapter.id, 0]));
  try {
    for (const { conn } of conns)
      for (let i = 0; i < warmup; i++) await conn.call('echo', { message: 'warm' });
    for (let r = 0; r < rounds; r++) {
      for (const { adapter, conn } of rotate(conns, r)) {
        const into = samples.get(adapter.id);
        const cpuStart = process.cpuUsage();
        for (let i = 0; i < perRound; i++) {
          const start = performance.now();
          await conn.call('echo', { message: `hello ${i}` });
          into.push(usSince(start));
        }
        const used = process.cpuUsage(cpuStart);
        cpu.set(adapter.id, cpu.get(adapter.id) + used.user + used.system);
      }
    }
  } finally {
    for (const { conn } of conns) await conn.close().catch(() => {});
  }
  const clients = {};
  for (const [id, s] of samples) {
    clients[id] = {
      medianUs: median(s),
      p99Us: quantile(s, 0.99),
      cpuUs: cpu.get(id) / s.length,
      n: s.length,
    };
  }
  for (const [id, message] of Object.entries(failures)) clients[id] = { error: message };
  return { server: name, transport, clients };
}

/** Runs workload 1; `counts` = { warmup, rounds, perRound }. */
export async function runRoundtrip(counts) {
  const out = [];
  out.push(await scenario('fast fixture', 'stdio', (a) => a.stdio(fastStdio()), counts));
  const fast = await startFastHttp();
  try {
    out.push(await scenario('fast fixture', 'http', (a) => a.http(fast.url), counts));
  } finally {
    await fast.stop();
  }
  out.push(await scenario('server-everything', 'stdio', (a) => a.stdio(everythingStdio()), counts));
  const everything = await startEverythingHttp();
  try {
    out.push(await scenario('server-everything', 'http', (a) => a.http(everything.url), counts));
  } finally {
    await everything.stop();
  }
  return out;
}
