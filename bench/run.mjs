#!/usr/bin/env node
// The benchmark suite (issue 8): agentwire against the bare floor and its peers, same run, same machine,
// same servers. `npm run bench` builds dist/ and runs everything; then bench/results.json and
// bench/RESULTS.md are rewritten.
//   node bench/run.mjs [--quick] [--only=1,2,3,4,5,6,7,8] [--no-write] [--before=<earlier results.json>]
// --quick uses small counts (to check the harness, not to quote); --only runs some workloads (the report
// then covers only those); --before adds an earlier run's figure to each goal. AGENTWIRE_DIST=<dir> measures
// a build of src/ other than dist/ (e.g. `tsc -p tsconfig.build.json --outDir bench/.build/x`).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runMeta } from './lib/meta.mjs';
import { renderReport } from './report.mjs';
import { runAgentLoop } from './workloads/agent.mjs';
import { runCliStartup } from './workloads/cli-startup.mjs';
import { runChurn, runLarge, runScaling, runTools } from './workloads/isolated.mjs';
import { runResultBudget } from './workloads/result-budget.mjs';
import { runRoundtrip } from './workloads/roundtrip.mjs';
import { runThroughput } from './workloads/throughput.mjs';

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
  log('workload 8: CLI start-up, --help against tools');
  w.startup = await runCliStartup({ runs: quick ? 3 : 20 });
}
results.meta.loadAtEnd = (await import('node:os')).loadavg().map((l) => Math.round(l * 100) / 100);

const beforeFile = args.find((a) => a.startsWith('--before='))?.slice('--before='.length);
const before = beforeFile === undefined ? undefined : JSON.parse(readFileSync(beforeFile, 'utf8'));
const report = renderReport(results, before);
if (args.includes('--no-write')) {
  process.stdout.write(report);
} else {
  const files = [path.join(here, 'results.json'), path.join(here, 'RESULTS.md')];
  writeFileSync(files[0], `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(files[1], report);
  // Both files are committed, so they must pass `npm run lint` as written: let the repo's formatter lay
  // them out (tables aligned, short arrays joined).
  const biome = path.join(here, '..', 'node_modules', '.bin', 'biome');
  try {
    execFileSync(biome, ['format', '--write', ...files], { stdio: 'ignore' });
  } catch (error) {
    log(`biome format failed (${error?.message ?? error}); run \`npx biome format --write bench\``);
  }
  log('wrote bench/results.json and bench/RESULTS.md');
}
