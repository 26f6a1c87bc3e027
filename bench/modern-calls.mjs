#!/usr/bin/env node
// MCP 2026-07-28 tools/call: agentwire's direct path (src/mcp/session/engine/modern-calls.ts) against the SDK's
// request funnel (src/mcp/session/engine/sdk-call.ts), side by side in one run. Each path has its own session to its
// own copy of the server; they take turns in rounds (the first rotating), so load drifts hit both alike.
// Servers: the fast fixture speaking 2026-07-28 (bench/fixtures/, BENCH_MODERN=1) over stdio and Streamable
// HTTP, and the era2026 test fixture (the official SDK's server) over stdio. Reported: median round trip,
// client CPU per call, direct / funnel. Writes bench/results-modern-calls.json and the "2026-07-28 tools/call"
// section of bench/RESULTS.md (run.mjs keeps that section when it rewrites the file).
//   npm run build && node --no-warnings bench/modern-calls.mjs [--quick] [--no-write]
// AGENTWIRE_DIST=<dir> measures another build of src/, as run.mjs.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { MODERN_CALLS, withSection } from './lib/kept-section.mjs';
import { runMeta } from './lib/meta.mjs';
import { FAST_STDIO, smallEnv, startFastHttp } from './lib/servers.mjs';
import { median, quantile, ratio, rotate, round, usSince } from './lib/stats.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.join(here, '..');
const dist = path.resolve(root, process.env.AGENTWIRE_DIST ?? 'dist');
const { Session } = await import(pathToFileURL(path.join(dist, 'mcp/session/session.js')).href);
const { StdioTransport } = await import(
  pathToFileURL(path.join(dist, 'mcp/transports/stdio/stdio-transport.js')).href
);
const { StreamableHTTPTransport } = await import(
  pathToFileURL(path.join(dist, 'mcp/transports/http/streamable-http.js')).href
);

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const COUNTS = quick ? { warmup: 20, rounds: 2, perRound: 30 } : { warmup: 200, rounds: 20, perRound: 100 };
const PATHS = ['direct', 'funnel'];
const ERA2026_STDIO = path.join(root, 'test/fixtures/era2026/stdio-server.mjs');
const hooks = { onUnexpectedClose: () => {}, onToolListChanged: () => {}, onError: () => {} };
const log = (message) => process.stderr.write(`[modern-calls] ${message}\n`);

async function open(createTransport, probe, modernCalls) {
  const session = await Session.open({
    server: 'bench',
    clientInfo: { name: 'bench', version: '1.0.0' },
    createTransport,
    hooks,
    request: { timeoutMs: 30_000 },
    era: { probe, modernCalls },
  });
  if (session.protocolVersion !== '2026-07-28')
    throw new Error(`expected 2026-07-28, negotiated ${session.protocolVersion}`);
  return session;
}

async function scenario(server, transport, connect, tool, toolArgs) {
  const conns = [];
  for (const via of PATHS) conns.push({ via, session: await connect(via) });
  const samples = new Map(PATHS.map((via) => [via, []]));
  const cpu = new Map(PATHS.map((via) => [via, 0]));
  try {
    for (const { session } of conns)
      for (let i = 0; i < COUNTS.warmup; i++) await session.callTool(tool, toolArgs(i), {});
    for (let r = 0; r < COUNTS.rounds; r++) {
      for (const { via, session } of rotate(conns, r)) {
        const into = samples.get(via);
        const cpuStart = process.cpuUsage();
        for (let i = 0; i < COUNTS.perRound; i++) {
          const start = performance.now();
          await session.callTool(tool, toolArgs(i), {});
          into.push(usSince(start));
        }
        const used = process.cpuUsage(cpuStart);
        cpu.set(via, cpu.get(via) + used.user + used.system);
      }
    }
  } finally {
    for (const { session } of conns) await session.close();
  }
  const paths = {};
  for (const [via, s] of samples) {
    paths[via] = {
      medianUs: round(median(s)),
      p99Us: round(quantile(s, 0.99)),
      cpuUs: round(cpu.get(via) / s.length),
      n: s.length,
    };
  }
  return {
    server,
    transport,
    paths,
    timeRatio: ratio(paths.direct.medianUs, paths.funnel.medianUs),
    cpuRatio: ratio(paths.direct.cpuUs, paths.funnel.cpuUs),
  };
}

const stdio = (serverArgs, env) => () =>
  new StdioTransport({ command: process.execPath, args: serverArgs, env, serverName: 'bench' });

const meta = runMeta(`node bench/modern-calls.mjs${quick ? ' --quick' : ''} (after \`npm run build\`)`);
const scenarios = [];
const echo = (i) => ({ message: `hello ${i}` });
log('fast fixture, stdio');
scenarios.push(
  await scenario(
    'fast fixture',
    'stdio',
    (via) => open(stdio([FAST_STDIO], smallEnv({ BENCH_MODERN: '1' })), 'stdio', via),
    'echo',
    echo,
  ),
);
log('fast fixture, http');
const fast = await startFastHttp(undefined, { modern: true });
try {
  scenarios.push(
    await scenario(
      'fast fixture',
      'http',
      (via) => open(() => new StreamableHTTPTransport({ url: fast.url, serverName: 'bench' }), 'http', via),
      'echo',
      echo,
    ),
  );
} finally {
  await fast.stop();
}
log('era2026 fixture (SDK server), stdio');
scenarios.push(
  await scenario(
    'era2026 fixture (@modelcontextprotocol/server)',
    'stdio',
    (via) => open(stdio([ERA2026_STDIO, '--modern-only'], smallEnv()), 'stdio', via),
    'echo',
    (i) => ({ text: `hello ${i}` }),
  ),
);
meta.loadAtEnd = (await import('node:os')).loadavg().map((l) => Math.round(l * 100) / 100);

const results = { meta, counts: COUNTS, scenarios };
const section = renderSection(results);
process.stdout.write(`${section}\n`);
if (!args.includes('--no-write')) {
  writeFileSync(path.join(here, 'results-modern-calls.json'), `${JSON.stringify(results, null, 2)}\n`);
  const file = path.join(here, 'RESULTS.md');
  writeFileSync(file, withSection(readFileSync(file, 'utf8'), section, MODERN_CALLS));
  // Committed files must pass `npm run lint` as written (tables aligned), as run.mjs does.
  const json = path.join(here, 'results-modern-calls.json');
  execFileSync(path.join(root, 'node_modules', '.bin', 'biome'), ['format', '--write', file, json], {
    stdio: 'ignore',
  });
  log('wrote bench/results-modern-calls.json and the section of bench/RESULTS.md');
}

/** The RESULTS.md section for `results`, between its markers. */
function renderSection({ meta: m, counts, scenarios: rows }) {
  const us = (v) => `${Math.round(v)} µs`;
  const lines = [
    MODERN_CALLS[0],
    '## 10. MCP 2026-07-28 tools/call: the direct path against the SDK funnel',
    '',
    `Generated by \`node bench/modern-calls.mjs\` (${m.date}; Node ${m.node}; load average ${m.loadAtStart.join(' / ')} at start, ${m.loadAtEnd.join(' / ')} at end; agentwire ${m.versions?.agentwire ?? ''}).`,
    `Sequential \`echo\` calls, ${counts.rounds} rounds of ${counts.perRound} per path after ${counts.warmup} warm-up calls, the paths taking turns. "direct / funnel" below 1.00× means the direct path is faster.`,
    '',
    '| server | transport | direct: median | funnel: median | direct / funnel | direct: client CPU per call | funnel: client CPU per call | CPU: direct / funnel |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.server} | ${r.transport} | ${us(r.paths.direct.medianUs)} | ${us(r.paths.funnel.medianUs)} | ${r.timeRatio?.toFixed(2)}× | ${us(r.paths.direct.cpuUs)} | ${us(r.paths.funnel.cpuUs)} | ${r.cpuRatio?.toFixed(2)}× |`,
    );
  }
  lines.push(MODERN_CALLS[1]);
  return lines.join('\n');
}
