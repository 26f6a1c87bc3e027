#!/usr/bin/env node
/**
 * Judges one `conformance client --requirements <revision>` run of the 0.2 suite against a reasoned list of
 * expected failures, the way run.sh judges the 0.1.16 scenarios one by one.
 *
 * Usage: node verdict.mjs <revision> <list-output> <results-dir> <expected-failures.json> <suite-exit-status>
 *
 * - <list-output>: what `conformance list --requirements <revision>` printed; every client scenario in it is
 *   judged, the scored ones and those the suite runs but never scores (extensions, added after release).
 * - <results-dir>: the run's `-o` directory, one `<scenario>-<timestamp>/checks.json` per scenario.
 * - <expected-failures.json>: `{ "<scenario>": "<why it fails today>" }`.
 *
 * A scenario fails when any check is FAILURE or WARNING (as the suite's own baseline counts it). An expected
 * failure that passes, or an entry naming a scenario the revision does not run, is an unexpected result, so
 * the list cannot go stale. The suite's exit status must agree with the scored scenarios' FAILURE checks.
 *
 * Prints one line per scenario and `conformance 0.2 <revision>: N passed, M failed (K expected failures)`;
 * exit status 0 when M is 0, 1 otherwise.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const [revision, listFile, resultsDir, expectedFile, suiteStatusText] = process.argv.slice(2);
if (suiteStatusText === undefined) {
  console.error(
    'usage: node verdict.mjs <revision> <list-output> <results-dir> <expected.json> <suite-status>',
  );
  process.exit(2);
}

const { scored, notScored } = parseList(readFileSync(listFile, 'utf8'));
if (scored.length === 0) {
  console.error(`conformance 0.2 ${revision}: the suite listed no client scenarios`);
  process.exit(2);
}
const expected = existsSync(expectedFile) ? JSON.parse(readFileSync(expectedFile, 'utf8')) : {};
const results = readResults(resultsDir);

let passed = 0;
let failed = 0;
let xfailed = 0;
let scoredFailure = false;
for (const [scenario, reason] of Object.entries(expected)) {
  if (!scored.includes(scenario) && !notScored.has(scenario)) {
    failed++;
    console.log(
      `FAIL  ${scenario}  is listed in ${expectedFile.split('/').pop()} but ${revision} does not run it`,
    );
  } else if (typeof reason !== 'string' || reason.trim() === '') {
    failed++;
    console.log(`FAIL  ${scenario}  has no written reason in ${expectedFile.split('/').pop()}`);
  }
}
for (const scenario of [...scored, ...notScored.keys()]) {
  const checks = results.get(scenario);
  const tag = notScored.has(scenario) ? ` [not scored: ${notScored.get(scenario)}]` : '';
  const reason = expected[scenario];
  if (checks === undefined) {
    failed++;
    console.log(`FAIL  ${scenario}${tag}  no checks.json in ${relative(process.cwd(), resultsDir)}`);
    continue;
  }
  const bad = checks.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
  if (!notScored.has(scenario) && checks.some((check) => check.status === 'FAILURE')) scoredFailure = true;
  const summary = `${checks.filter((check) => check.status === 'SUCCESS').length} passed, ${bad.length} failed`;
  if (bad.length === 0 && reason === undefined) {
    passed++;
    console.log(`PASS  ${scenario}${tag}  (${summary})`);
  } else if (bad.length > 0 && reason !== undefined) {
    xfailed++;
    console.log(`XFAIL ${scenario}${tag}  (${summary}): ${reason}`);
  } else if (bad.length === 0) {
    failed++;
    console.log(
      `FAIL  ${scenario}${tag}  passed but is listed in ${expectedFile.split('/').pop()}: remove it`,
    );
  } else {
    failed++;
    console.log(`FAIL  ${scenario}${tag}  (${summary})`);
    for (const check of bad.slice(0, 8)) {
      console.log(
        `      ${check.status} ${check.id}: ${(check.errorMessage ?? check.description).slice(0, 200)}`,
      );
    }
  }
}

// The suite exits 1 exactly when a scored scenario has a FAILURE check: a disagreement means this file
// misread the results.
const suiteStatus = Number(suiteStatusText);
if (suiteStatus > 1 || (suiteStatus === 1) !== scoredFailure) {
  failed++;
  console.log(`FAIL  the suite exited ${suiteStatus}, which does not match the scored results read here`);
}

const suffix = xfailed > 0 ? ` (${xfailed} expected failures)` : '';
console.log(`conformance 0.2 ${revision}: ${passed} passed, ${failed} failed${suffix}`);
process.exit(failed === 0 ? 0 : 1);

/**
 * The client legs of `list --requirements` output: "Client scenarios" items are scored; items tagged
 * `[client]` under "Run and reported, but never scored" are not, grouped under their reason.
 */
function parseList(text) {
  const scoredList = [];
  const unscored = new Map();
  let section = '';
  let group = '';
  for (const line of text.split('\n')) {
    if (/^\S/.test(line)) section = line;
    const group_ = line.match(/^ {2}(\S[^:]*) \(\d+\):$/);
    if (group_) group = group_[1];
    const scoredItem = line.match(/^ {2}- (\S+)$/);
    if (scoredItem && section.startsWith('Client scenarios')) scoredList.push(scoredItem[1]);
    const unscoredItem = line.match(/^ {4}- (\S+) \[client\]$/);
    if (unscoredItem && section.startsWith('Run and reported')) unscored.set(unscoredItem[1], group);
  }
  return { scored: scoredList, notScored: unscored };
}

/** Scenario name → its checks, from `<dir>/[auth/]<name>-<ISO timestamp>/checks.json`. */
function readResults(dir) {
  const found = new Map();
  if (!existsSync(dir)) return found;
  for (const entry of readdirSync(dir, { recursive: true })) {
    const path = String(entry);
    if (!path.endsWith('/checks.json')) continue;
    const scenario = path.slice(0, -'/checks.json'.length).replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, '');
    found.set(scenario, JSON.parse(readFileSync(join(dir, path), 'utf8')));
  }
  return found;
}
