// Workload 14: what a journaled step costs per turn. Workload 6's loop (a fake model answering at once,
// in-process; each turn one `echo` on the fast fixture over stdio) run plainly by `Agent.execute` and as a
// durable run (agentwire/restate) on a real Restate server (restate-server from node_modules, on loopback,
// its data in a temporary folder; the worker endpoint in this process). Each durable turn journals the model
// turn, the turn's events and the call (plus the call's "started" mark, for a tool that may not be made
// twice; `retryInterrupted` leaves it out). Overhead per turn = (durable − plain) / turns, medians of the
// same run. Needs dist/ (`npm run build`).
//   node bench/workloads/durable.mjs [--quick]   prints the figures as JSON
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttp2Server } from 'node:http2';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { fastStdio } from '../lib/servers.mjs';
import { median, rotate } from '../lib/stats.mjs';
import { fakeModel } from './agent.mjs';

const require = createRequire(import.meta.url);

/** The restate-server binary npm installed for this platform, or undefined. */
function restateBinary() {
  try {
    const pkg = require.resolve(
      `@restatedev/restate-server-${process.platform}-${process.arch}/package.json`,
    );
    return path.join(path.dirname(pkg), 'bin', 'restate-server');
  } catch {
    return undefined;
  }
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts restate-server on free loopback ports; resolves with its URLs and `stop()`. */
async function startRestate(binary) {
  const ports = new Set();
  while (ports.size < 3) ports.add(await freePort());
  const [ingress, admin, fabric] = [...ports];
  const base = mkdtempSync(path.join(tmpdir(), 'agentwire-bench-restate-'));
  const child = spawn(
    binary,
    ['--base-dir', base, '--node-name', 'bench', '--no-logo', '--default-num-partitions', '1'],
    {
      env: {
        PATH: process.env.PATH ?? '',
        RESTATE_LISTEN_MODE: 'tcp',
        RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingress}`,
        RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${admin}`,
        RESTATE_BIND_ADDRESS: `127.0.0.1:${fabric}`,
        RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${fabric}/`,
        RESTATE_DISABLE_TELEMETRY: 'true',
        RESTATE_LOG_FILTER: 'warn',
      },
      stdio: 'ignore',
    },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const urls = { ingress: `http://127.0.0.1:${ingress}`, admin: `http://127.0.0.1:${admin}` };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(base, { recursive: true, force: true });
  };
  const deadline = Date.now() + 20_000;
  for (const url of [`${urls.admin}/health`, `${urls.ingress}/restate/health`]) {
    while (
      !(await fetch(url).then(
        (r) => r.ok,
        () => false,
      ))
    ) {
      if (Date.now() > deadline || child.exitCode !== null) {
        await stop();
        throw new Error('restate-server did not start');
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return { ...urls, stop };
}

/** Runs workload 14; `counts` = { turns, runs }. Resolves to `{ error }` when it cannot run here. */
export async function runDurable({ turns, runs }) {
  const binary = restateBinary();
  if (binary === undefined)
    return { error: `no restate-server binary for ${process.platform}-${process.arch}` };
  let Agent;
  let restateApi;
  let MCPClient;
  // The SDK's console logger, read when it loads: its per-invocation lines would drown the figures.
  process.env.RESTATE_LOGGING ??= 'ERROR';
  try {
    ({ Agent } = await import('../../dist/agent/index.js'));
    ({ MCPClient } = await import('../../dist/index.js'));
    restateApi = await import('../../dist/restate/index.js');
  } catch (error) {
    return { error: `agentwire is not built: ${error?.message ?? error}` };
  }
  const sdk = await import('@restatedev/restate-sdk');
  const { command, args } = fastStdio();
  const client = MCPClient.fromStdio({ command, args });
  await client.connect();
  const makeAgent = () =>
    new Agent({ model: fakeModel(turns, 'echo'), tools: client.getTools(), maxTurns: turns + 1 });
  const objects = [
    restateApi.durableAgent({ name: 'marked', agent: makeAgent }),
    restateApi.durableAgent({ name: 'unmarked', agent: makeAgent, retryInterrupted: ['echo'] }),
  ];
  const endpoint = createHttp2Server(sdk.createEndpointHandler({ services: objects }));
  const workerPort = await freePort();
  await new Promise((resolve) => endpoint.listen(workerPort, '127.0.0.1', resolve));
  const restate = await startRestate(binary);
  const samples = { plain: [], marked: [], unmarked: [] };
  const entriesPerTurn = {};
  try {
    const registered = await fetch(`${restate.admin}/deployments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uri: `http://127.0.0.1:${workerPort}` }),
    });
    if (!registered.ok) throw new Error(`registering the worker: HTTP ${registered.status}`);
    const clients = {
      marked: new restateApi.DurableAgentClient({ ingressUrl: restate.ingress, name: 'marked' }),
      unmarked: new restateApi.DurableAgentClient({ ingressUrl: restate.ingress, name: 'unmarked' }),
    };
    let key = 0;
    const durable = (kind) => async () => {
      key += 1;
      const result = await clients[kind].run(`run-${key}`, 'go');
      if (result.turns !== turns)
        throw new Error(`the durable run took ${result.turns} turns, expected ${turns}`);
    };
    const plain = async () => {
      const result = await makeAgent().execute('go');
      if (result.turns !== turns) throw new Error(`the agent took ${result.turns} turns, expected ${turns}`);
    };
    const kinds = [
      ['plain', plain],
      ['marked', durable('marked')],
      ['unmarked', durable('unmarked')],
    ];
    for (let r = 0; r < runs + 1; r++) {
      for (const [kind, run] of rotate(kinds, r)) {
        const t = performance.now();
        await run();
        // Run 0 is a warm-up.
        if (r > 0) samples[kind].push(((performance.now() - t) * 1000) / turns);
      }
    }
    // Journal entries of one run of each kind, per turn (what each turn writes).
    for (const name of ['marked', 'unmarked']) {
      const response = await fetch(`${restate.admin}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          query: `SELECT COUNT(*) AS entries FROM sys_journal j JOIN sys_invocation i ON j.id = i.id WHERE i.target_service_name = '${name}' AND i.target_handler_name = 'run' AND j.entry_type LIKE 'Command%'`,
        }),
      });
      const { rows } = await response.json();
      entriesPerTurn[name] = Math.round((Number(rows[0]?.entries) / (runs + 1) / turns) * 10) / 10;
    }
  } finally {
    await restate.stop();
    await new Promise((resolve) => endpoint.close(resolve));
    await client.disconnect();
  }
  const plainUs = median(samples.plain);
  const markedUs = median(samples.marked);
  const unmarkedUs = median(samples.unmarked);
  return {
    turns,
    runs,
    plainPerTurnUs: plainUs,
    durablePerTurnUs: markedUs,
    durableUnmarkedPerTurnUs: unmarkedUs,
    overheadPerTurnUs: markedUs - plainUs,
    overheadUnmarkedPerTurnUs: unmarkedUs - plainUs,
    journalCommandsPerTurn: entriesPerTurn,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  const figures = await runDurable(quick ? { turns: 5, runs: 3 } : { turns: 20, runs: 20 });
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  process.exit(0);
}
