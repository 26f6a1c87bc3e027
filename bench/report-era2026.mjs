// Renders workload 9 (bench/workloads/era2026.mjs) as one section of bench/RESULTS.md, between markers, so
// that `node bench/run.mjs --only=9` can rewrite that section alone and leave the others' figures (and the
// run they came from) as they are.
import { ERA2026 } from './lib/kept-section.mjs';
import { ratio } from './lib/stats.mjs';
import { ERA_CLIENTS } from './workloads/era2026.mjs';

const us = (v) => (Number.isFinite(v) ? `${Math.round(v)} µs` : '—');
const ms = (v) => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms` : '—');
const x = (r) => (r === null || r === undefined ? '—' : `${r.toFixed(2)}×`);
const failed = (e) => `**failed**: ${String(e).replace(/\|/g, '/').slice(0, 140)}`;

/** One row per client of `clients`; the last column is agentwire's `value` over the row's. */
function table(headers, clients, cells, value, base = 'agentwire') {
  const aw = clients[base] && !clients[base].error ? value(clients[base]) : Number.NaN;
  const rows = [
    `| client | ${headers.join(' | ')} | agentwire ('auto') / client |`,
    `|---|${headers.map(() => '---|').join('')}---|`,
  ];
  for (const [id, entry] of Object.entries(clients)) {
    const name = ERA_CLIENTS[id] ?? id;
    if (entry.error) rows.push(`| ${name} | ${failed(entry.error)}${' |'.repeat(headers.length)}`);
    else
      rows.push(
        `| ${name} | ${cells(entry).join(' | ')} | ${id === base ? '—' : x(ratio(aw, value(entry)))} |`,
      );
  }
  return rows.join('\n');
}

/** The section for `w7` (the `era2026` entry of results.json), `meta` the run's conditions. */
export function renderEra2026(w7, meta) {
  const out = [
    ERA2026[0],
    '',
    "## 9. MCP 2026-07-28: agentwire against the bare SDK v2 client in `versionNegotiation: { mode: 'auto' }`",
    '',
    `Run ${meta.date}, \`${meta.command}\`, load average at start ${meta.loadAtStart.join(' / ')}` +
      `${meta.quick ? ' (**--quick: counts too small to quote**)' : ''}. Servers: the 2026-only fixture of the` +
      ' tests (`test/fixtures/era2026/server.mjs`, @modelcontextprotocol/server 2.4.0) over stdio and over' +
      ' Streamable HTTP (`bench/fixtures/era2026-http.mjs`, a separate process); server-everything (2025) for' +
      " the negotiation rows. Both clients in one process, taking turns in rotating rounds; agentwire's 2026" +
      ' `tools/call` path is whatever `src/mcp/session/` holds at the build measured.',
    '',
  ];
  for (const s of w7.roundtrip ?? []) {
    out.push(`### Round trip (tools/call \`echo\`), ${s.transport}\n`);
    out.push(
      table(
        ['median', 'p99', 'calls', 'revision'],
        s.clients,
        (e) => [us(e.medianUs), us(e.p99Us), String(e.n), e.version ?? '—'],
        (e) => e.medianUs,
      ),
    );
    out.push('');
  }
  for (const s of w7.throughput ?? []) {
    out.push(`### ${s.calls} concurrent calls over one connection, ${s.transport}\n`);
    out.push(
      table(
        ['median burst', 'bursts'],
        s.clients,
        (e) => [ms(e.totalMs), String(e.bursts)],
        (e) => e.totalMs,
      ),
    );
    out.push('');
  }
  for (const s of w7.tools ?? []) {
    out.push(
      `### Connect + tools/list of ${s.tools} more tools, ${s.transport} (a fresh connection each time)\n`,
    );
    out.push(
      table(
        ['median connect', 'connects', 'tools', 'revision'],
        s.clients,
        (e) => [ms(e.connectMs), String(e.connects), String(e.toolCount), e.version ?? '—'],
        (e) => e.connectMs,
      ),
    );
    out.push('');
  }
  for (const s of w7.negotiation ?? []) {
    out.push(`### Connect to a 2025 server (server-everything), ${s.transport}: what negotiating costs\n`);
    out.push(
      table(
        ['median connect + list', 'connects', 'revision'],
        s.clients,
        (e) => [ms(e.connectMs), String(e.connects), e.version ?? '—'],
        (e) => e.connectMs,
      ),
    );
    const pinned = ratio(s.clients.agentwire?.connectMs, s.clients['agentwire-2025']?.connectMs);
    const extra = s.clients.agentwire?.connectMs - s.clients['agentwire-2025']?.connectMs;
    out.push(
      '',
      `'auto' against the 2025 pin: ${x(pinned)} (difference ${ms(extra)}; what 'auto' adds is the \`server/discover\` probe` +
        `${s.transport === 'stdio' ? ', answered -32601 by the same process' : "'s 400, one extra round trip"}).` +
        (s.transport === 'http'
          ? ' The same client connecting again keeps the verdict per origin and sends `initialize` at once.'
          : ' Over stdio every connect probes (one warm round trip); the SDK probes on a second process.'),
      '',
    );
  }
  out.push(ERA2026[1]);
  return out.join('\n');
}
