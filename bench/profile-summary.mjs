#!/usr/bin/env node
// Summarises a .cpuprofile: self time per function (top N) and per file, so a profile can be quoted.
//   node bench/profile-summary.mjs <file.cpuprofile> [top=25]
import { readFileSync } from 'node:fs';

const [file, topArg = '25'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const deltas = profile.timeDeltas;
for (const [i, id] of profile.samples.entries()) self.set(id, (self.get(id) ?? 0) + (deltas[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const fn = new Map();
const files = new Map();
for (const [id, t] of self) {
  const { callFrame: c } = byId.get(id);
  const where = c.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(dist|bench)\//, '$1/');
  const key = `${c.functionName || '(anonymous)'}  ${where}:${c.lineNumber + 1}`;
  fn.set(key, (fn.get(key) ?? 0) + t);
  const f = where || `(${c.functionName})`;
  files.set(f, (files.get(f) ?? 0) + t);
}
const pct = (t) => `${((t / total) * 100).toFixed(1).padStart(5)}%`;
const top = Number(topArg);
console.log(`total sampled ${(total / 1000).toFixed(0)} ms\n\nself time by function:`);
for (const [k, t] of [...fn].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t)}  ${k}`);
console.log('\nself time by file:');
for (const [k, t] of [...files].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t)}  ${k}`);

// Inclusive time (a function and everything it called) for frames in agentwire, the SDK and zod.
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const inclusive = new Map();
for (const [id, t] of self) {
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const { callFrame: c } = byId.get(cur);
    if (!/dist\/|modelcontextprotocol|zod|ai-sdk|langchain/.test(c.url)) continue;
    const where = c.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(dist|bench)\//, '$1/');
    const key = `${c.functionName || '(anonymous)'}  ${where}:${c.lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + t);
  }
}
console.log('\ninclusive time, library frames:');
for (const [k, t] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(t)}  ${k}`);
