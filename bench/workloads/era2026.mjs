// Workload 7: MCP 2026-07-28. agentwire (`protocolVersion: 'auto'`, its default) against the bare SDK v2
// client in `versionNegotiation: { mode: 'auto' }`, on the 2026-only fixture of the tests
// (test/fixtures/era2026/server.mjs, @modelcontextprotocol/server 2.4.0) over stdio and Streamable HTTP:
//   a. sequential tools/call round trips (`echo`), both clients connected, taking turns in rotating rounds;
//   b. bursts of `calls` concurrent tools/call over one connection, in rotating rounds, in this process;
//   c. connect + tools/list of a server with `tools` more tools (a fresh connection each time; over stdio
//      that includes starting the server);
//   d. what negotiation costs a connect to a 2025 server (server-everything over stdio and HTTP): agentwire
//      'auto' against the SDK's 'auto' (which probes stdio servers on a second, throwaway process), against
//      agentwire pinned to 2025-11-25 (no probe), and agentwire 'auto' reconnecting the same client (over
//      HTTP its verdict is kept per origin, so no probe either).
// Every figure is a median of the run; ratios are agentwire's over the other's, in the same run.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { everythingStdio, smallEnv, startEverythingHttp } from '../lib/servers.mjs';
import { median, quantile, rotate, round, usSince } from '../lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const STDIO_FIXTURE = path.join(here, '..', '..', 'test', 'fixtures', 'era2026', 'stdio-server.mjs');
const HTTP_FIXTURE = path.join(here, '..', 'fixtures', 'era2026-http.mjs');

/** The clients of this workload. */
export const ERA_CLIENTS = {
  agentwire: "agentwire ('auto')",
  'sdk-v2-auto': "SDK v2 (@modelcontextprotocol/client), versionNegotiation 'auto'",
  'agentwire-2025': "agentwire pinned to '2025-11-25'",
  'agentwire-again': "agentwire ('auto'), the same client connecting again",
};

async function agentwire() {
  const dir = process.env.AGENTWIRE_DIST;
  if (dir === undefined) return import('../../dist/index.js');
  return import(pathToFileURL(path.resolve(dir, 'index.js')).href);
}

/** A connection of one of {@link ERA_CLIENTS}: `{ call, toolCount, version, close }`. */
async function connect(id, server, options = {}) {
  if (id === 'sdk-v2-auto') {
    const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
    const client = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    let transport;
    if (server.url) transport = new StreamableHTTPClientTransport(new URL(server.url));
    else {
      const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
      transport = new StdioClientTransport({ ...server.stdio, stderr: 'ignore' });
    }
    await client.connect(transport);
    const list = await client.listTools();
    return {
      toolCount: list.tools.length,
      version: client.getNegotiatedProtocolVersion(),
      call: (name, input) => client.callTool({ name, arguments: input }),
      close: () => client.close(),
    };
  }
  const { MCPClient } = await agentwire();
  const pin = id === 'agentwire-2025' ? { protocolVersion: '2025-11-25' } : {};
  const client =
    options.client ??
    (server.url
      ? MCPClient.fromUrl(server.url, { transport: 'streamable-http', ...pin })
      : MCPClient.fromStdio(server.stdio, pin));
  await client.connect();
  return {
    toolCount: client.getTools().length,
    version: client.getProtocolVersion(),
    call: (name, input) => client.callTool(name, input),
    close: () => client.disconnect(),
    client,
  };
}

/** Starts the HTTP fixture as a child with `tools` extra tools; resolves to `{ url, stop() }`. */
function startFixtureHttp(tools = 0) {
  const child = spawn(process.execPath, [HTTP_FIXTURE], {
    env: smallEnv({ BENCH_TOOLS: String(tools) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`era2026 HTTP fixture: no URL in 20 s: ${out}`)), 20_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const url = out.match(/http:\/\/\S+\/mcp/)?.[0];
      if (!url) return;
      clearTimeout(timer);
      const stop = () =>
        new Promise((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once('exit', () => done());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
        });
      resolve({ url, stop });
    });
    child.once('exit', (code) => reject(new Error(`era2026 HTTP fixture exited with ${code}: ${out}`)));
  });
}

const stdioFixture = (tools = 0) => ({
  stdio: { command: process.execPath, args: [STDIO_FIXTURE, '--modern-only', `--tools=${tools}`] },
});

/** Runs `task` for each of `ids`, failures recorded per client rather than ending the workload. */
async function each(ids, task) {
  const out = {};
  for (const id of ids) {
    try {
      out[id] = await task(id);
    } catch (error) {
      out[id] = { error: String(error?.message ?? error) };
    }
  }
  return out;
}

const PAIR = ['agentwire', 'sdk-v2-auto'];

async function roundtrip(transport, server, { warmup, rounds, perRound }) {
  const conns = await each(PAIR, (id) => connect(id, server));
  const live = PAIR.filter((id) => !conns[id].error);
  const samples = Object.fromEntries(live.map((id) => [id, []]));
  try {
    for (const id of live) for (let i = 0; i < warmup; i++) await conns[id].call('echo', { text: 'warm' });
    for (let r = 0; r < rounds; r++) {
      for (const id of rotate(live, r)) {
        for (let i = 0; i < perRound; i++) {
          const start = performance.now();
          await conns[id].call('echo', { text: `hello ${i}` });
          samples[id].push(usSince(start));
        }
      }
    }
  } finally {
    for (const id of live) await conns[id].close().catch(() => {});
  }
  const clients = {};
  for (const id of PAIR) {
    clients[id] = conns[id].error
      ? conns[id]
      : {
          medianUs: round(median(samples[id])),
          p99Us: round(quantile(samples[id], 0.99)),
          n: samples[id].length,
          version: conns[id].version,
        };
  }
  return { transport, clients };
}

async function throughput(transport, server, { calls, rounds }) {
  const conns = await each(PAIR, (id) => connect(id, server));
  const live = PAIR.filter((id) => !conns[id].error);
  const totals = Object.fromEntries(live.map((id) => [id, []]));
  const burst = (conn) =>
    Promise.all(Array.from({ length: calls }, (_, i) => conn.call('echo', { text: `c${i}` })));
  try {
    for (const id of live) await burst(conns[id]);
    for (let r = 0; r < rounds; r++) {
      for (const id of rotate(live, r)) {
        // Lets the last burst's sockets go idle first (see `settle` in child-tasks.mjs).
        await new Promise((resolve) => setTimeout(resolve, 10));
        const start = performance.now();
        await burst(conns[id]);
        totals[id].push(performance.now() - start);
      }
    }
  } finally {
    for (const id of live) await conns[id].close().catch(() => {});
  }
  const clients = {};
  for (const id of PAIR)
    clients[id] = conns[id].error
      ? conns[id]
      : { totalMs: round(median(totals[id]), 2), bursts: totals[id].length };
  return { transport, calls, clients };
}

/** Median connect (+ list) time of fresh connections, clients taking turns; `again` reuses one client. */
async function connects(ids, server, repeats) {
  const times = Object.fromEntries(ids.map((id) => [id, []]));
  const info = {};
  const failed = {};
  const kept = {};
  for (let r = 0; r < repeats + 1; r++) {
    for (const id of rotate(ids, r)) {
      if (failed[id]) continue;
      try {
        const again = id === 'agentwire-again';
        const start = performance.now();
        const conn = await connect(again ? 'agentwire' : id, server, again ? { client: kept[id] } : {});
        const elapsed = performance.now() - start;
        if (again) kept[id] = conn.client;
        info[id] = { toolCount: conn.toolCount, version: conn.version };
        await conn.close();
        // Round 0 warms every client's code path (module loading, JIT) and primes the kept client's
        // verdict; it is not counted.
        if (r > 0) times[id].push(elapsed);
      } catch (error) {
        failed[id] = String(error?.message ?? error);
      }
    }
  }
  const clients = {};
  for (const id of ids)
    clients[id] = failed[id]
      ? { error: failed[id] }
      : { connectMs: round(median(times[id]), 2), connects: times[id].length, ...info[id] };
  return clients;
}

/** Runs workload 9; `counts` = { roundtrip, throughput, tools: { tools, repeats }, negotiation: { repeats } }. */
export async function runEra2026(counts, log = () => {}) {
  const out = { roundtrip: [], throughput: [], tools: [], negotiation: [] };
  out.roundtrip.push(await roundtrip('stdio', stdioFixture(), counts.roundtrip));
  out.throughput.push(await throughput('stdio', stdioFixture(), counts.throughput));
  const many = counts.tools.tools;
  out.tools.push({
    transport: 'stdio',
    tools: many,
    clients: await connects(PAIR, stdioFixture(many), counts.tools.repeats),
  });
  log('7: stdio done; http round trips');
  const small = await startFixtureHttp();
  try {
    out.roundtrip.push(await roundtrip('http', small, counts.roundtrip));
    log('7: http bursts');
    out.throughput.push(await throughput('http', small, counts.throughput));
  } finally {
    await small.stop();
  }
  log('7: http tools');
  const large = await startFixtureHttp(many);
  try {
    out.tools.push({
      transport: 'http',
      tools: many,
      clients: await connects(PAIR, large, counts.tools.repeats),
    });
  } finally {
    await large.stop();
  }
  log('7: negotiation');
  const negotiating = ['agentwire', 'sdk-v2-auto', 'agentwire-2025', 'agentwire-again'];
  const { repeats } = counts.negotiation;
  out.negotiation.push({
    transport: 'stdio',
    clients: await connects(negotiating, { stdio: everythingStdio() }, repeats),
  });
  const everything = await startEverythingHttp();
  try {
    out.negotiation.push({ transport: 'http', clients: await connects(negotiating, everything, repeats) });
  } finally {
    await everything.stop();
  }
  return out;
}
