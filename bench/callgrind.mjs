#!/usr/bin/env node
// Client instructions per stdio round trip, counted by `valgrind --tool=callgrind` (independent of the
// machine's load, unlike the wall clock). Each client makes N1 and then, in a second process, N2 sequential
// `echo` calls against the fast fixture (bench/profile.mjs); the difference of the two totals divided by
// N2 - N1 is the steady-state cost of one call, start-up and warm-up cancelled out. Only the client's process
// is counted (valgrind does not follow the server child). Under valgrind a start takes minutes on a loaded
// machine: agentwire is given connect and probe timeouts to match (the calls themselves are unchanged).
//   node bench/callgrind.mjs [--clients=floor,agentwire,sdk-v1] [--calls=3000,8000] [--jobs=2]
// `AGENTWIRE_DIST=<dir>` counts another build of agentwire (default dist/, so `npm run build` first; a build
// elsewhere needs the package.json in its parent directory, as dist/ has).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ADAPTERS } from './lib/clients.mjs';
import { fastStdio } from './lib/servers.mjs';

const option = (name, fallback) =>
  (process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback).split(',');
const self = fileURLToPath(import.meta.url);
const run = option('run', '')[0];
if (run !== '') {
  await drive(run, Number(option('calls', '1000')[0]));
  process.exit(0);
}
const clients = option('clients', 'floor,agentwire,sdk-v1');
const [n1, n2] = option('calls', '3000,8000').map(Number);
const jobs = Number(option('jobs', '2')[0]);
if (!(n2 > n1)) throw new Error('--calls=N1,N2 needs N2 > N1');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'aw-callgrind-'));

/** Total instructions (Ir) of one run of `client` making `calls` calls. */
function count(client, calls) {
  const out = path.join(scratch, `${client}-${calls}.out`);
  const args = ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, self, `--run=${client}`];
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', [...args, `--calls=${calls}`], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${client} ${calls}: valgrind exited ${code}\n${stderr}`));
      const totals = /^(?:totals|summary): (\d+)/m.exec(readFileSync(out, 'utf8'));
      if (totals === null) return reject(new Error(`${client} ${calls}: no totals in ${out}`));
      resolve(Number(totals[1]));
    });
  });
}

/** One counted process: `calls` sequential `echo` calls by `client` (as bench/profile.mjs makes them). */
async function drive(client, calls) {
  let conn;
  if (client === 'agentwire') {
    const dir = process.env.AGENTWIRE_DIST ?? path.join(path.dirname(self), '..', 'dist');
    const { MCPClient } = await import(pathToFileURL(path.resolve(dir, 'index.js')).href);
    const { command, args } = fastStdio();
    const slow = { connectTimeoutMs: 900_000, probeTimeoutMs: 900_000 };
    const mcp = MCPClient.fromStdio({ command, args }, slow);
    await mcp.connect();
    conn = { call: (name, input) => mcp.callTool(name, input), close: () => mcp.disconnect() };
  } else {
    const adapter = ADAPTERS.find((a) => a.id === client);
    if (adapter === undefined) throw new Error(`unknown client ${client}`);
    conn = await adapter.stdio(fastStdio());
  }
  try {
    for (let i = 0; i < calls; i++) await conn.call('echo', { message: `hello ${i}` });
  } finally {
    await conn.close();
  }
}

/** Runs `tasks` (functions returning promises) `jobs` at a time, results in order. */
async function pooled(tasks) {
  const results = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]();
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, tasks.length) }, worker));
  return results;
}

try {
  const started = Date.now();
  const runs = clients.flatMap((client) => [() => count(client, n1), () => count(client, n2)]);
  const totals = await pooled(runs);
  const perCall = Object.fromEntries(
    clients.map((client, i) => [client, (totals[2 * i + 1] - totals[2 * i]) / (n2 - n1)]),
  );
  const floor = perCall.floor;
  for (const [client, instructions] of Object.entries(perCall)) {
    const vsFloor = floor === undefined ? '' : `  ${(instructions / floor).toFixed(2)}× the floor`;
    process.stdout.write(
      `${client.padEnd(14)} ${(instructions / 1000).toFixed(1).padStart(7)} k instructions per call${vsFloor}\n`,
    );
  }
  process.stdout.write(`(${n1} and ${n2} calls; ${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
