#!/usr/bin/env node
// The benchmark suite (issue 8): agentwire against the bare floor and its peers, same run, same machine,
// same servers. `npm run bench` builds dist/ and runs everything; then bench/results.json and
// bench/RESULTS.md are rewritten.
//   node bench/run.mjs [--quick] [--only=1,2,3,4,5,6,7,8,9,11,12] [--no-write] [--before=<earlier results.json>]
// --quick uses small counts (to check the harness, not to quote); --only runs some workloads (the report
// then covers only those; --only=9 alone rewrites only workload 9's section of RESULTS.md and its figures
// go to bench/results-era2026.json, leaving the other workloads' run as it was); --before adds an earlier run's figure to each goal. AGENTWIRE_DIST=<dir> measures
// a build of src/ other than dist/ (e.g. `tsc -p tsconfig.build.json --outDir bench/.build/x`).
// Workload 12 (bench/workloads/scale-out.mjs) needs `redis-server` on PATH.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERA2026, GATEWAY, keptSection, MODERN_CALLS, withSection } from './lib/kept-section.mjs';
import { runMeta } from './lib/meta.mjs';
import { renderReport } from './report.mjs';
import { renderEra2026 } from './report-era2026.mjs';
import { runAgentLoop } from './workloads/agent.mjs';
import { runCliStartup } from './workloads/cli-startup.mjs';
import { runEra2026 } from './workloads/era2026.mjs';
import { runChurn, runLarge, runScaling, runTools } from './workloads/isolated.mjs';
import { runResultBudget } from './workloads/result-budget.mjs';
import { runRoundtrip } from './workloads/roundtrip.mjs';
import { runScaleOut } from './workloads/scale-out.mjs';
import { runTelemetry } from './workloads/telemetry.mjs';
import { runThroughput } from './workloads/throughput.mjs';
import { runToolSearch } from './workloads/tool-search.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
  .map(Number);
const wanted = (n) => only === undefined || only.includes(n);
const here = path.dirname(fileURLToPath(import.meta.url));

const COUNTS = quick
  ? {
      roundtrip: { warmup: 20, rounds: 2, perRound: 30 },
      throughput: { calls: 1000, rounds: 1 },
      large: { maxCalls: 1, budgetMs: 1 },
      scaling: { rounds: 2 },
      largeSizes: [
        { kind: 'text', mib: 20 },
        { kind: 'text', mib: 40 },
        { kind: 'image', mib: 10 },
      ],
      tools: { tools: 5000, repeats: 2 },
      churn: { cycles: 20 },
      agent: { turns: 20, runs: 3 },
      era2026: {
        roundtrip: { warmup: 20, rounds: 2, perRound: 30 },
        throughput: { calls: 1000, rounds: 1 },
        tools: { tools: 5000, repeats: 1 },
        negotiation: { repeats: 1 },
      },
      toolSearch: { runs: 5 },
    }
  : {
      roundtrip: { warmup: 200, rounds: 20, perRound: 100 },
      throughput: { calls: 1000, rounds: 5 },
      large: { maxCalls: 5, budgetMs: 15_000 },
      scaling: { rounds: 9 },
      largeSizes: [
        { kind: 'text', mib: 20 },
        { kind: 'text', mib: 40 },
        { kind: 'image', mib: 10 },
      ],
      tools: { tools: 5000, repeats: 5 },
      churn: { cycles: 200 },
      agent: { turns: 20, runs: 20 },
      era2026: {
        roundtrip: { warmup: 200, rounds: 20, perRound: 100 },
        throughput: { calls: 1000, rounds: 5 },
        // The SDK's server takes seconds to start with 5 000 tools; 3 connects per client bound the run.
        tools: { tools: 5000, repeats: 3 },
        negotiation: { repeats: 7 },
      },
      toolSearch: { runs: 50 },
    };

const log = (message) =>
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);

const command = `node bench/run.mjs${args.length > 0 ? ` ${args.join(' ')}` : ''}`;
const results = { meta: { ...runMeta(command), quick, counts: COUNTS }, workloads: {} };
const w = results.workloads;

if (wanted(1)) {
  log('workload 1: sequential round trips');
  w.roundtrip = await runRoundtrip(COUNTS.roundtrip);
}
if (wanted(2)) {
  log('workload 2: 1 000 concurrent calls');
  w.throughput = await runThroughput(COUNTS.throughput);
}
if (wanted(3)) {
  log('workload 3: large results');
  w.large = await runLarge(COUNTS.largeSizes, COUNTS.large);
  w.scaling = await runScaling(COUNTS.scaling);
}
if (wanted(4)) {
  log('workload 4: 5 000 tools');
  w.tools = await runTools(COUNTS.tools);
}
if (wanted(5)) {
  log('workload 5: connection churn');
  w.churn = await runChurn(COUNTS.churn);
}
if (wanted(6)) {
  log('workload 6: agent loop');
  w.agent = await runAgentLoop(COUNTS.agent);
}
if (wanted(7)) {
  log('workload 7: tool result budget');
  w.budget = await runResultBudget();
}
if (wanted(8)) {
  log('workload 8: hundreds of tools');
  w.toolSearch = await runToolSearch(COUNTS.toolSearch);
}
if (wanted(9)) {
  log('workload 9: MCP 2026-07-28 against the SDK v2 client in auto mode');
  w.era2026 = await runEra2026(COUNTS.era2026, log);
}
if (wanted(11)) {
  log('workload 11: CLI start-up, --help against tools');
  w.startup = await runCliStartup({ runs: quick ? 3 : 20 });
}
if (wanted(12)) {
  log('workload 12: one server process against two, behind a round-robin balancer, events on Redis');
  const counts = quick ? { calls: 100, rounds: 1, bursts: 2 } : { calls: 200, rounds: 10, bursts: 1 };
  w.scaleOut = await runScaleOut(counts, log);
  log('workload 13: an agent turn with and without a tracer provider');
  w.telemetry = await runTelemetry(quick ? { turns: 5, runs: 3 } : { turns: 20, runs: 20 });
}
results.meta.loadAtEnd = (await import('node:os')).loadavg().map((l) => Math.round(l * 100) / 100);

const beforeFile = args.find((a) => a.startsWith('--before='))?.slice('--before='.length);
const before = beforeFile === undefined ? undefined : JSON.parse(readFileSync(beforeFile, 'utf8'));
const eraOnly = only?.every((n) => n === 9) === true;
const resultsFile = path.join(here, eraOnly ? 'results-era2026.json' : 'results.json');
const reportFile = path.join(here, 'RESULTS.md');
const report = eraOnly
  ? withSection(readFileSync(reportFile, 'utf8'), renderEra2026(w.era2026, results.meta), ERA2026)
  : renderReport(results, before);
if (args.includes('--no-write')) {
  process.stdout.write(report);
} else {
  const files = [resultsFile, reportFile];
  writeFileSync(files[0], `${JSON.stringify(results, null, 2)}\n`);
  // The sections bench/modern-calls.mjs writes and the gateway's stay (lib/kept-section.mjs).
  const old = readFileSync(files[1], 'utf8');
  const kept = withSection(report, keptSection(old, MODERN_CALLS), MODERN_CALLS);
  writeFileSync(files[1], withSection(kept, keptSection(old, GATEWAY), GATEWAY));
  // Both files are committed, so they must pass `npm run lint` as written: let the repo's formatter lay
  // them out (tables aligned, short arrays joined).
  const biome = path.join(here, '..', 'node_modules', '.bin', 'biome');
  try {
    execFileSync(biome, ['format', '--write', ...files], { stdio: 'ignore' });
  } catch (error) {
    log(`biome format failed (${error?.message ?? error}); run \`npx biome format --write bench\``);
  }
  log(`wrote ${files.map((f) => path.relative(path.join(here, '..'), f)).join(' and ')}`);
}
