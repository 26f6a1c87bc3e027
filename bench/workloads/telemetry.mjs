// Workload 13: what OpenTelemetry costs an agent turn. The agent loop of workload 6 (a fake model answering
// instantly in-process, the fast fixture's `echo` over stdio, one call per turn) run two ways, taking turns:
// "off", the host has @opentelemetry/api but registered neither a tracer provider nor a context manager
// (the API's no-op tracer answers); "on", a tracer provider with a span processor that hands every span to
// an exporter which drops it, and the AsyncLocalStorage context manager (what an OpenTelemetry Node SDK
// setup registers). Each turn records `chat`, `execute_tool` and the MCP `tools/call` span.
//   node bench/workloads/telemetry.mjs [--turns=N] [--runs=N] [--merge]  (--merge: into results.json + RESULTS.md)
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { withHeadedSection } from '../lib/kept-section.mjs';
import { median, ratio, rotate, round } from '../lib/stats.mjs';
import { connectAgentLoop } from './agent.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Runs workload 13; `counts` = { turns, runs }. Resolves to `{ error }` when the agent is not built. */
export async function runTelemetry({ turns, runs }) {
  const loop = await connectAgentLoop();
  if (loop.error !== undefined) return { error: loop.error };
  const { client, agentRun } = loop;
  const loadAtStart = loadavg()[0];
  let exported = 0;
  const exporter = {
    export(spans, done) {
      exported += spans.length;
      done({ code: 0 });
    },
    shutdown: async () => {},
  };
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const manager = new AsyncLocalStorageContextManager();
  const off = () => {
    trace.disable();
    context.disable();
  };
  const on = () => {
    off();
    context.setGlobalContextManager(manager.enable());
    trace.setGlobalTracerProvider(provider);
  };
  const samples = { off: [], on: [] };
  let spansPerRun;
  try {
    const kinds = [
      ['off', off],
      ['on', on],
    ];
    for (let r = 0; r < runs + 1; r++) {
      for (const [kind, setup] of rotate(kinds, r)) {
        setup();
        const before = exported;
        const t = performance.now();
        await agentRun(turns);
        // Run 0 is a warm-up.
        if (r > 0) samples[kind].push(((performance.now() - t) * 1000) / turns);
        if (kind === 'on') spansPerRun = exported - before;
      }
    }
  } finally {
    off();
    await provider.shutdown();
    await client.disconnect();
  }
  const offUs = median(samples.off);
  const onUs = median(samples.on);
  return {
    turns,
    runs,
    offPerTurnUs: round(offUs),
    onPerTurnUs: round(onUs),
    overheadPerTurnUs: round(onUs - offUs),
    ratio: ratio(onUs, offUs),
    spansPerRun,
    load: [round(loadAtStart, 2), round(loadavg()[0], 2)],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) =>
    Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
  const counts = { turns: arg('turns', 20), runs: arg('runs', 20) };
  const result = await runTelemetry(counts);
  if (!process.argv.includes('--merge')) {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else {
    const file = path.join(here, '..', 'results.json');
    const results = JSON.parse(readFileSync(file, 'utf8'));
    results.workloads.telemetry = {
      ...result,
      measuredAt: new Date().toISOString(),
      command: `node bench/workloads/telemetry.mjs --turns=${counts.turns} --runs=${counts.runs} --merge`,
    };
    writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    // Only section 13 is rewritten (replaced, or appended at the end): the rest of the report stays as
    // the runs that wrote it left it.
    const { renderTelemetry } = await import('../report.mjs');
    const report = path.join(here, '..', 'RESULTS.md');
    const text = readFileSync(report, 'utf8');
    const section = renderTelemetry(results.workloads.telemetry);
    const spliced = withHeadedSection(text, '## 13. ', section);
    writeFileSync(report, spliced);
    process.stderr.write('merged workload 13 into bench/results.json and bench/RESULTS.md\n');
  }
}
