// Renders bench/RESULTS.md from the results object written to bench/results.json: the run's conditions,
// the goals of issue 8 with the measured ratio next to each, then one table per workload.
import { ADAPTERS } from './lib/clients.mjs';
import { ratio } from './lib/stats.mjs';
import { renderEra2026 } from './report-era2026.mjs';
import { renderScaleOut } from './workloads/scale-out.mjs';

const PEERS = ['sdk-v2', 'sdk-v1', 'ai-sdk', 'langchain', 'openai-agents'];
const label = (id) => ADAPTERS.find((a) => a.id === id)?.label ?? id;
const us = (v) => (Number.isFinite(v) ? `${Math.round(v)} µs` : '—');
const ms = (v) => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(2) : v.toFixed(1)} ms` : '—');
const x = (r) => (r === null || r === undefined ? '—' : `${r.toFixed(2)}×`);
const errorCell = (e) => `**failed**: ${String(e).replace(/\|/g, '/').slice(0, 140)}`;
const yes = (ok) => (ok === null ? 'n/a' : ok ? 'yes' : '**no**');

/** A table: one row per client, `cells(entry)` gives the measured columns, `value(entry)` the one ratioed. */
function clientTable(headers, clients, cells, value) {
  const aw = clients.agentwire && !clients.agentwire.error ? value(clients.agentwire) : Number.NaN;
  const rows = [
    `| client | ${headers.join(' | ')} | agentwire / client |`,
    `|---|${headers.map(() => '---|').join('')}---|`,
  ];
  for (const adapter of ADAPTERS) {
    const entry = clients[adapter.id];
    if (!entry) continue;
    if (entry.error) {
      rows.push(`| ${adapter.label} | ${errorCell(entry.error)}${' |'.repeat(headers.length)}`);
      continue;
    }
    const r = adapter.id === 'agentwire' ? null : ratio(aw, value(entry));
    rows.push(`| ${adapter.label} | ${cells(entry).join(' | ')} | ${x(r)} |`);
  }
  return rows.join('\n');
}

/** agentwire's ratio to the fastest peer that completed (below 1 = ahead of every peer), or null. */
function vsBestPeer(clients, value) {
  const aw = clients.agentwire;
  if (!aw || aw.error) return { r: null, ok: false, best: 'agentwire failed' };
  let best;
  for (const id of PEERS) {
    const e = clients[id];
    if (!e || e.error) continue;
    if (best === undefined || value(e) < value(clients[best])) best = id;
  }
  if (best === undefined) return { r: null, ok: true, best: 'no peer completed' };
  const r = ratio(value(aw), value(clients[best]));
  return { r, ok: value(aw) < value(clients[best]), best: label(best) };
}

/** The goals of issue 8 as rows `{ goal, measured, ok }` (`ok` null: no goal set, recorded only). */
function goalRows(w) {
  const rows = [];
  const add = (goal, measured, ok) => rows.push({ goal, measured, ok });
  for (const s of w.roundtrip ?? []) {
    const v = (e) => e.medianUs;
    const peer = vsBestPeer(s.clients, v);
    const cpuPeer = vsBestPeer(s.clients, (e) => e.cpuUs);
    add(
      `Round trip, ${s.server}, ${s.transport}: faster than every peer`,
      `${x(peer.r)} the fastest peer (${peer.best}); client CPU ${x(cpuPeer.r)} the leanest peer (${cpuPeer.best})`,
      peer.ok,
    );
    if (s.transport === 'stdio') {
      const r = ratio(s.clients.agentwire?.medianUs, s.clients.floor?.medianUs);
      add(
        `Round trip, ${s.server}, stdio: ≤ 1.5× the bare pipe`,
        `${x(r)} the floor`,
        r !== null && r <= 1.5,
      );
    }
  }
  for (const s of w.throughput ?? []) {
    const peer = vsBestPeer(s.clients, (e) => e.totalMs);
    add(
      `${s.calls} concurrent calls, ${s.transport}: total time ahead of every peer`,
      `${x(peer.r)} ${peer.best}`,
      peer.ok,
    );
    const warned = (s.clients.agentwire?.warnings ?? []).filter((m) => /MaxListeners/.test(m.message));
    add(
      `${s.calls} concurrent calls, ${s.transport}: no MaxListenersExceeded warning`,
      warned.length === 0 ? 'none' : warned.map((m) => m.message).join('; '),
      warned.length === 0,
    );
  }
  const large = w.large ?? [];
  const t20 = large.find((l) => l.kind === 'text' && l.mib === 20);
  const t40 = large.find((l) => l.kind === 'text' && l.mib === 40);
  if (t20) {
    const aw = t20.clients.agentwire ?? {};
    const r = ratio(aw.ms, t20.clients.floor?.ms);
    add('20 MiB text result over stdio: ≤ 2× the floor', `${x(r)} the floor`, r !== null && r <= 2);
    const mem = ratio(aw.peakRssDeltaMiB, 20);
    add(
      '20 MiB text result: peak memory ≤ 3× the payload',
      `${aw.peakRssDeltaMiB} MiB = ${x(mem)}`,
      mem !== null && mem <= 3,
    );
    for (const l of large) {
      const peer = vsBestPeer(l.clients, (e) => e.ms);
      add(`${l.mib} MiB ${l.kind} result: time ahead of every peer`, `${x(peer.r)} ${peer.best}`, peer.ok);
    }
  }
  const scaled = w.scaling?.clients;
  if (scaled?.agentwire?.ms) {
    // Both sizes in one process, interleaved: the figure the goal is judged on.
    const r = ratio(scaled.agentwire.ms[40], scaled.agentwire.ms[20]);
    const floor = ratio(scaled.floor?.ms?.[40], scaled.floor?.ms?.[20]);
    add(
      '2× larger payload (40 vs 20 MiB) costs ≤ 2.2× the time',
      `${x(r)} (interleaved in one process, ${w.scaling.rounds} calls of each; the floor ${x(floor)})`,
      r !== null && r <= 2.2,
    );
  } else if (t20 && t40) {
    const r = ratio(t40.clients.agentwire?.ms, t20.clients.agentwire?.ms);
    add('2× larger payload (40 vs 20 MiB) costs ≤ 2.2× the time', x(r), r !== null && r <= 2.2);
  }
  if (w.tools) {
    const peer = vsBestPeer(w.tools.clients, (e) => e.connectMs);
    add(`${w.tools.tools} tools: connect + list ahead of every peer`, `${x(peer.r)} ${peer.best}`, peer.ok);
    const refresh = w.tools.clients.agentwire?.refresh;
    const list = w.tools.clients.floor?.refresh?.listMs;
    if (refresh) {
      const after = refresh.refreshToolsMs - list;
      add(
        `${w.tools.tools} tools: list_changed refresh ≤ 100 ms after the list arrives`,
        `${ms(after)} (refreshTools ${ms(refresh.refreshToolsMs)} − bare tools/list ${ms(list)}); mutate call → toolsChanged ${ms(refresh.mutateToEventMs)}`,
        after <= 100,
      );
      add(
        'list_changed refresh keeps the identity of unchanged tools',
        `${refresh.kept} of ${w.tools.tools - refresh.changed} unchanged kept, ${refresh.changed} changed`,
        refresh.kept === w.tools.tools - refresh.changed,
      );
    }
  }
  if (w.churn) {
    const aw = w.churn.clients.agentwire ?? {};
    add(
      'Process start: a stdio server does not get NODE_EXTRA_CA_CERTS (nor the whole environment)',
      aw.serverEnv
        ? `server saw ${aw.serverEnv.keys} variables, NODE_EXTRA_CA_CERTS ${aw.serverEnv.extraCaCerts ? 'present' : 'absent'}`
        : '—',
      aw.serverEnv ? !aw.serverEnv.extraCaCerts : false,
    );
    const left = aw.leftNow;
    add(
      `${w.churn.cycles} connect/disconnect cycles: zero processes and file descriptors left`,
      left ? `${left.processes} processes, ${left.fds} fds` : '—',
      left ? left.processes === 0 && left.fds === 0 : false,
    );
  }
  if (w.agent && !w.agent.error) {
    add('Agent loop overhead per turn (no goal set; recorded)', `${us(w.agent.overheadPerTurnUs)}`, null);
  }
  if (w.budget && !w.budget.error) {
    for (const row of w.budget.rows) {
      add(
        `Tool result budget: \`${row.tool}\` of a ${bytes(row.fileBytes)} file reaches the model within ${bytes(w.budget.budgetBytes)}`,
        `${bytes(row.toolResultBytes)} (request ${bytes(row.requestBytes)}; the server sent ${bytes(row.serverResultBytes)})`,
        row.toolResultBytes <= w.budget.budgetBytes,
      );
    }
  }
  if (w.toolSearch && !w.toolSearch.error) {
    const t = w.toolSearch;
    add(
      `${t.offered} tools: tool definitions per request, search vs all (no goal set; recorded)`,
      `${bytes(t.searchBytes)} (${bytes(t.loadedBytes)} with 5 tools loaded) vs ${bytes(t.allBytes)}`,
      null,
    );
  }
  if (w.startup && !w.startup.error) {
    add(
      '`agentwire --help` starts in well under the time `agentwire tools` needs (under half)',
      `${w.startup.helpMs} ms against ${w.startup.toolsMs} ms (${w.startup.ratio}×)`,
      w.startup.ratio < 0.5,
    );
  }
  return rows;
}

/** The goals table; with `before` (an earlier results.json) each row also shows the earlier run's figure. */
function goals(w, before) {
  const rows = goalRows(w);
  if (before === undefined) {
    const lines = rows.map((r) => `| ${r.goal} | ${r.measured} | ${yes(r.ok)} |`);
    return ['| goal | measured (agentwire) | met |', '|---|---|---|', ...lines].join('\n');
  }
  const earlier = new Map(goalRows(before.workloads).map((r) => [r.goal, r]));
  const lines = rows.map((r) => {
    const b = earlier.get(r.goal);
    const then = b === undefined ? '—' : `${b.measured} (${b.ok === null ? 'n/a' : b.ok ? 'met' : 'missed'})`;
    return `| ${r.goal} | ${then} | ${r.measured} | ${yes(r.ok)} |`;
  });
  return [
    `| goal | before (${before.meta.date.slice(0, 16).replace('T', ' ')}, ${before.meta.versions.agentwire}) | now (agentwire) | met |`,
    '|---|---|---|---|',
    ...lines,
  ].join('\n');
}

function sections(w) {
  const out = [];
  if (w.roundtrip) {
    out.push('## 1. Sequential round trip (tools/call `echo`, one at a time)\n');
    for (const s of w.roundtrip) {
      out.push(`### ${s.server}, ${s.transport}\n`);
      out.push(
        clientTable(
          ['median', 'p99', 'client CPU per call', 'CPU: agentwire / client', 'calls'],
          s.clients,
          (e) => [
            us(e.medianUs),
            us(e.p99Us),
            us(e.cpuUs),
            e === s.clients.agentwire ? '—' : x(ratio(s.clients.agentwire?.cpuUs, e.cpuUs)),
            e.n,
          ],
          (e) => e.medianUs,
        ),
        '',
      );
    }
  }
  if (w.throughput) {
    out.push('## 2. Throughput: concurrent calls over one connection (fast fixture)\n');
    for (const s of w.throughput) {
      out.push(`### ${s.calls} concurrent calls, ${s.transport}\n`);
      out.push(
        clientTable(
          ['total (median of bursts)', 'p50 latency', 'p99 latency', 'client CPU per call', 'warnings'],
          s.clients,
          (e) => [
            ms(e.totalMs),
            ms(e.p50Us / 1000),
            ms(e.p99Us / 1000),
            e.cpuUsPerCall === undefined ? '—' : `${Math.round(e.cpuUsPerCall)} µs`,
            e.warnings.length === 0 ? 'none' : e.warnings.map((m) => `${m.message} (×${m.count})`).join('; '),
          ],
          (e) => e.totalMs,
        ),
        '',
      );
    }
  }
  if (w.large) {
    out.push('## 3. Large results over stdio (fast fixture; one client per process)\n');
    out.push(
      "Peak memory = the process's peak RSS during the first large call minus its RSS just before it.\n",
    );
    if (w.scaling?.clients) {
      const rows = Object.entries(w.scaling.clients).map(([id, e]) =>
        e.error
          ? `| ${id} | **failed**: ${e.error} | | |`
          : `| ${id} | ${ms(e.ms[20])} | ${ms(e.ms[40])} | ${x(ratio(e.ms[40], e.ms[20]))} |`,
      );
      out.push(
        `Scaling: 20 and 40 MiB text calls interleaved in one process per client, ${w.scaling.rounds} of each, medians.\n`,
        '| client | 20 MiB | 40 MiB | 40 / 20 |\n|---|---|---|---|',
        ...rows,
        '',
      );
    }
    for (const l of w.large) {
      out.push(`### ${l.mib} MiB ${l.kind}\n`);
      out.push(
        clientTable(
          ['median time', 'peak memory', 'calls'],
          l.clients,
          (e) => [ms(e.ms), `${e.peakRssDeltaMiB} MiB`, e.calls],
          (e) => e.ms,
        ),
        '',
      );
    }
  }
  if (w.tools) {
    out.push(`## 4. A server with ${w.tools.tools} tools (stdio; one client per process)\n`);
    out.push(
      'Connect = spawn + initialize + tools/list, median. Memory = heap / RSS growth after a forced GC.\n',
    );
    out.push(
      clientTable(
        ['connect + list', 'heap growth', 'RSS growth'],
        w.tools.clients,
        (e) => [ms(e.connectMs), `${e.heapDeltaMiB} MiB`, `${e.rssDeltaMiB} MiB`],
        (e) => e.connectMs,
      ),
      '',
    );
    const r = w.tools.clients.agentwire?.refresh;
    if (r) {
      out.push(
        `agentwire list_changed: \`mutate\` call → \`toolsChanged\` ${ms(r.mutateToEventMs)} (includes the 20 ms ` +
          `debounce); \`refreshTools()\` ${ms(r.refreshToolsMs)}; bare tools/list of the same list ` +
          `${ms(w.tools.clients.floor?.refresh?.listMs)}; ${r.kept} tools kept their identity, ${r.changed} changed ` +
          `(added ${r.added}, removed ${r.removed}).\n`,
      );
    }
  }
  if (w.churn) {
    out.push(`## 5. Connection churn: ${w.churn.cycles} connect/disconnect cycles of a stdio server\n`);
    out.push(
      'Each client uses its default environment for the server; "server env" is what the server saw. ' +
        'Left = descendants and open fds of the client process right after the last disconnect (and 2 s later).\n',
    );
    out.push(
      clientTable(
        ['median cycle', 'total', 'left now', 'left after 2 s', 'server env'],
        w.churn.clients,
        (e) => [
          ms(e.cycleMs),
          ms(e.totalMs),
          `${e.leftNow.processes} proc, ${e.leftNow.fds} fd`,
          `${e.leftAfter2s.processes} proc, ${e.leftAfter2s.fds} fd`,
          `${e.serverEnv.keys} vars, NODE_EXTRA_CA_CERTS ${e.serverEnv.extraCaCerts ? 'passed' : 'not passed'}`,
        ],
        (e) => e.cycleMs,
      ),
      '',
    );
  }
  if (w.agent) {
    out.push(
      '## 6. Agent loop overhead per turn (fake model answering instantly in-process; fast fixture over stdio)\n',
    );
    if (w.agent.error) out.push(`Not measured: ${w.agent.error}\n`);
    else {
      out.push(
        `| loop | per turn (median of ${w.agent.runs} runs of ${w.agent.turns} turns) |\n|---|---|\n` +
          `| agentwire \`Agent.execute\` | ${us(w.agent.agentPerTurnUs)} |\n` +
          `| hand-written loop over the same \`MCPClient\` (floor) | ${us(w.agent.floorPerTurnUs)} |\n` +
          `| **overhead per turn** | ${us(w.agent.overheadPerTurnUs)} (${x(ratio(w.agent.agentPerTurnUs, w.agent.floorPerTurnUs))} the floor) |\n`,
      );
      out.push(
        'No peer agent loop is installed to compare with (LangChain agents and the AI SDK `ai` package are not devDependencies).\n',
      );
    }
  }
  if (w.budget) {
    out.push(
      '## 7. Tool result budget (real server-filesystem over stdio; `Agent` with its default budget)\n',
    );
    if (w.budget.measuredAt)
      out.push(`Measured ${w.budget.measuredAt} (\`${w.budget.command}\`, merged into this report).\n`);
    if (w.budget.error) out.push(`Not measured: ${w.budget.error}\n`);
    else {
      out.push(
        `| tool | file | the server sent (result JSON) | tool result the model is given | whole next model request |\n|---|---|---|---|---|\n${w.budget.rows
          .map(
            (r) =>
              `| \`${r.tool}\` | ${bytes(r.fileBytes)} | ${bytes(r.serverResultBytes)} | ${bytes(r.toolResultBytes)} | ${bytes(r.requestBytes)} |`,
          )
          .join('\n')}\n`,
      );
      out.push(
        `Budget: ${bytes(w.budget.budgetBytes)} per tool result (\`maxToolResultBytes\`). The text keeps its start and end with a notice naming \`head\` / \`tail\`; the image reaches the model as its placeholder, without the base64 copy server-filesystem puts in \`structuredContent\`.\n`,
      );
    }
  }
  if (w.toolSearch) {
    const t = w.toolSearch;
    out.push('## 8. Hundreds of tools (43 real servers; `Agent` with `search_tools` and without)\n');
    if (t.measuredAt) {
      const load = t.load ? `, load ${t.load.start[0]} → ${t.load.end[0]}` : '';
      out.push(`Measured ${t.measuredAt} (\`${t.command}\`${load}, merged into this report).\n`);
    }
    if (t.error) out.push(`Not measured: ${t.error}\n`);
    else {
      out.push(
        `${t.servers} servers (33 sessions of server-everything over Streamable HTTP, 5 server-filesystem and 5 server-memory over stdio, \`MCPServers.getTools({ prefix: true })\`): ${t.tools} tools, ${t.offered} offered (${t.tools - t.offered} need MCP tasks and are skipped). The model is an in-process fake; bytes are the JSON of the request's \`tools\` (provider-neutral specs, schemas as the servers sent them); times are medians of ${t.runs} runs.\n`,
      );
      out.push(
        `| | tool definitions per request | time per run |\n|---|---|---|\n` +
          `| every definition (\`toolSearchThreshold: Infinity\`), 1 turn | ${bytes(t.allBytes)} | ${ms(t.allTurnMs)} |\n` +
          `| \`search_tools\` only (default threshold 64), 1 turn | ${bytes(t.searchBytes)} | ${ms(t.searchTurnMs)} |\n` +
          `| a search for "read a file" (5 tools loaded), then the answer: 2 turns | ${bytes(t.searchBytes)}, then ${bytes(t.loadedBytes)} | ${ms(t.searchRunMs)} |\n`,
      );
    }
  }
  if (w.startup) {
    out.push('## 11. CLI start-up (the built CLI, a fresh process per run)\n');
    if (w.startup.measuredAt)
      out.push(`Measured ${w.startup.measuredAt} (\`${w.startup.command}\`, merged into this report).\n`);
    out.push(
      `| command | median wall time, start to exit (${w.startup.runs} runs) |\n|---|---|\n| \`agentwire --help\` | ${w.startup.helpMs} ms |\n| \`agentwire tools --stdio <fast fixture>\` | ${w.startup.toolsMs} ms |\n`,
    );
    out.push(
      'Registering the commands loads no MCP, agent or provider code (each command loads it when it runs), so `--help` costs Node, commander and picocolors only; `tools` adds the MCP layer, a server spawn, the handshake and `tools/list`.\n',
    );
  }
  if (w.scaleOut) out.push(renderScaleOut(w.scaleOut));
  if (w.telemetry) out.push(renderTelemetry(w.telemetry));
  return out.join('\n');
}

/** Section 13 (workload 13, bench/workloads/telemetry.mjs), on its own: the merge splices it in. */
export function renderTelemetry(t) {
  const out = [];
  out.push("## 13. OpenTelemetry: an agent turn with and without a tracer provider (workload 6's loop)\n");
  if (t.error) out.push(`Not measured: ${t.error}\n`);
  else {
    if (t.measuredAt)
      out.push(
        `Measured ${t.measuredAt} (\`${t.command}\`, merged into this report; 1-minute load average ${t.load?.join(' → ') ?? '—'}).\n`,
      );
    out.push(
      `| host | per turn (median of ${t.runs} runs of ${t.turns} turns) |\n|---|---|\n` +
        `| \`@opentelemetry/api\` installed, no tracer provider (no-op tracer) | ${us(t.offPerTurnUs)} |\n` +
        `| tracer provider + span processor (spans dropped by the exporter), AsyncLocalStorage context | ${us(t.onPerTurnUs)} |\n` +
        `| **cost of recording per turn** | ${us(t.overheadPerTurnUs)} (${x(t.ratio)}) |\n`,
    );
    out.push(
      `Each run records ${t.spansPerRun} spans: \`invoke_agent\`, and per turn \`chat\`, \`execute_tool\` and the MCP \`tools/call\` span (the last turn only \`chat\`). A turn mostly waits on the server's pipe, and on a loaded machine (the load average above) this difference moves from run to run; a CPU profile of the "on" loop (\`--cpu-prof\`) puts about 5% of its samples in the OpenTelemetry SDK and agentwire's span code together.\n`,
    );
  }
  return out.join('\n');
}

/** `6,000,000 B`: exact byte counts, grouped. */
function bytes(n) {
  return `${n.toLocaleString('en-US')} B`;
}

function fourthPeer() {
  if (ADAPTERS.some((a) => a.id === 'openai-agents'))
    return '@openai/agents-core (OpenAI Agents JS), measured';
  return (
    'not measured: mcp-use and @mastra/mcp need Node 22; `@openai/agents-core@0.14.3` (Node 20, SDK v1 ' +
    'inside) is wired in bench/lib/clients.mjs and joins every table once it is a devDependency'
  );
}

/** The whole RESULTS.md; `before`, an earlier run's results.json, adds its figures to the goals table. */
export function renderReport({ meta, workloads }, before) {
  const versions = Object.entries(meta.versions)
    .map(([pkg, v]) => `${pkg} ${v}`)
    .join(', ');
  return `# Benchmarks: agentwire against the floor and its peers

Generated by \`npm run bench\` (issue 8). Medians and ratios only; absolute times on a shared 2-core
machine are noisy, ratios within one run are not. "agentwire / client" below 1.00× means agentwire is faster.
${meta.quick ? '\n**This is a --quick run: counts are too small to quote.**\n' : ''}
| | |
|---|---|
| date | ${meta.date} |
| command | \`${meta.command}\` (after \`npm run build\`) |
| machine | ${meta.cpus} × ${meta.cpuModel}, ${meta.memoryGiB} GiB |
| load average (1/5/15 min) | start ${meta.loadAtStart.join(' / ')}, end ${meta.loadAtEnd?.join(' / ') ?? '—'} |
| Node | ${meta.node}; NODE_EXTRA_CA_CERTS ${meta.nodeExtraCaCertsSet ? 'set' : 'not set'} in the bench's environment |
| versions | ${versions} |
| clients | ${ADAPTERS.map((a) => `${a.id} = ${a.label}`).join('; ')} |
| fourth peer | ${fourthPeer()} |

Servers: the fast fixture is \`bench/fixtures/\` (raw JSON-RPC, no SDK, results pre-serialised) over stdio
and over Streamable HTTP (node:http, JSON responses, a separate process); server-everything 2026.8.31 over
stdio and streamableHttp. The floor ("bare") is a line reader and \`JSON.parse\` over the pipe, and undici's
\`request()\` over HTTP (the leanest HTTP client in Node; \`fetch\` is undici plus web streams). Every client connects to its own copy of the same server; in workloads 1 and 6
all clients run in one process taking turns in rotating order, in 2–5 each client runs in a fresh process
(in 2, one per client per round, in rotating order).

## Goals (issue 8)

${goals(workloads, before)}

Where agentwire misses a goal, [PROFILE.md](PROFILE.md) says where the time goes (CPU profiles, file and
function) and the fix proposed.

${sections(workloads)}${workloads.era2026 ? `\n\n${renderEra2026(workloads.era2026, meta)}\n` : ''}`;
}
