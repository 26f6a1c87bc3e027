// The servers the workloads run against: how to start each over stdio (a config every adapter accepts) and
// over HTTP (a child process the bench owns and stops). Children get a minimal environment on purpose:
// NODE_EXTRA_CA_CERTS on this machine adds ~75 ms to every Node start (SDK-NOTES.md), which would drown the
// per-call figures; workload 5 measures what each client passes by default instead.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));

export const FAST_STDIO = path.join(here, '..', 'fixtures', 'fast-stdio.mjs');
export const FAST_HTTP = path.join(here, '..', 'fixtures', 'fast-http.mjs');
export const EVERYTHING = path.join(
  path.dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
  'dist',
  'index.js',
);

/** A small environment for children the bench starts itself. */
export function smallEnv(extra = {}) {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/', ...extra };
}

/** Stdio config of the fast fixture, with `tools` tools in all. */
export function fastStdio(tools) {
  return {
    command: process.execPath,
    args: tools === undefined ? [FAST_STDIO] : [FAST_STDIO, '--tools', String(tools)],
  };
}

/** Stdio config of server-everything (its default mode is stdio). */
export function everythingStdio() {
  return { command: process.execPath, args: [EVERYTHING, 'stdio'] };
}

function waitForLine(child, match, what) {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => reject(new Error(`${what} did not start within 20 s: ${out.slice(-500)}`)),
      20_000,
    );
    const onData = (chunk) => {
      out += chunk.toString('utf8');
      const m = match(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code} before it was ready: ${out.slice(-500)}`));
    });
  });
}

function stopper(child) {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
    });
}

/**
 * Starts the fast HTTP fixture as a child; resolves to `{ url, stop() }`. `modern`: it speaks 2026-07-28 too
 * (mcp-core.mjs).
 */
export async function startFastHttp(tools, { modern = false } = {}) {
  const env = smallEnv({
    ...(tools === undefined ? {} : { BENCH_TOOLS: String(tools) }),
    ...(modern && { BENCH_MODERN: '1' }),
  });
  const child = spawn(process.execPath, [FAST_HTTP], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  const url = await waitForLine(child, (out) => out.match(/http:\/\/\S+\/mcp/)?.[0], 'fast-http fixture');
  return { url, stop: stopper(child) };
}

/** Starts server-everything in streamableHttp mode on a free port; resolves to `{ url, stop() }`. */
export async function startEverythingHttp() {
  const { createServer } = await import('node:net');
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: smallEnv({ PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitForLine(
    child,
    (out) => /listening|running|port/i.test(out),
    'server-everything (streamableHttp)',
  );
  return { url: `http://127.0.0.1:${port}/mcp`, stop: stopper(child) };
}
