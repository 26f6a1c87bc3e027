// Runs one measurement in a fresh Node process, so that peak RSS (maxRSS is per process), file descriptors
// and leftover processes belong to one client alone. The child prints one JSON line; anything else it
// prints is ignored. The child inherits this process's environment, so a client that passes its whole
// environment on to a server does so here too (workload 5 depends on that).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TASKS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'workloads', 'child-tasks.mjs');

/** Runs `task` for client `adapterId` with `params`; resolves to the child's JSON, or `{ error }`. */
export function runChild(task, adapterId, params, { timeoutMs = 120_000, nodeArgs = [] } = {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeArgs, TASKS, task, adapterId, JSON.stringify(params)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => {
      out += c;
    });
    child.stderr.on('data', (c) => {
      err = (err + c).slice(-4_000);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const line = out
        .split('\n')
        .reverse()
        .find((l) => l.startsWith('{"bench":'));
      if (line) return resolve(JSON.parse(line).bench);
      const why = signal === 'SIGKILL' ? `timed out after ${timeoutMs} ms` : `exited with ${code ?? signal}`;
      resolve({ error: `${task} child ${why}: ${err.trim().split('\n').slice(-3).join(' | ')}` });
    });
  });
}
