/**
 * A real Restate server for the durable-run tests: the binary npm installs with `@restatedev/restate-server`
 * (nothing downloaded when the tests run), on free loopback ports, its data in a temporary folder removed
 * by `stop()`. Also the admin API the tests use: registering a deployment and SQL over Restate's own tables.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../fixtures/http-everything.js';

const require = createRequire(import.meta.url);

/** Where npm put the server binary of this platform; undefined when it ships none for it. */
export function restateServerBinary(): string | undefined {
  try {
    const pkg = require.resolve(
      `@restatedev/restate-server-${process.platform}-${process.arch}/package.json`,
    );
    const binary = path.join(path.dirname(pkg), 'bin', 'restate-server');
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/** A running server. */
export interface RestateServer {
  /** `http://127.0.0.1:<port>`: Restate's HTTP ingress. */
  readonly ingress: string;
  /** `http://127.0.0.1:<port>`: its admin API. */
  readonly admin: string;
  /** What it printed, for failure messages. */
  output(): string;
  /** Registers the deployment at `uri` (a worker's endpoint). */
  register(uri: string): Promise<void>;
  /** Rows of an SQL query over Restate's tables (`sys_journal`, `state`, `sys_invocation`, …). */
  query(sql: string): Promise<Record<string, unknown>[]>;
  /** SIGTERM (SIGKILL after 5 s), then removes its data. Idempotent. */
  stop(): Promise<void>;
}

/** Three distinct free loopback ports. */
async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/** Starts the server; resolves once its admin API and ingress answer. */
export async function startRestate(binary: string): Promise<RestateServer> {
  const [ingressPort, adminPort, fabricPort] = await freePorts(3);
  const base = mkdtempSync(path.join(tmpdir(), 'agentwire-restate-'));
  const child = spawn(
    binary,
    ['--base-dir', base, '--node-name', 'test', '--no-logo', '--default-num-partitions', '1'],
    {
      env: {
        PATH: process.env.PATH ?? '',
        RESTATE_LISTEN_MODE: 'tcp',
        RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingressPort}`,
        RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${adminPort}`,
        RESTATE_BIND_ADDRESS: `127.0.0.1:${fabricPort}`,
        RESTATE_ADVERTISED_ADDRESS: `http://127.0.0.1:${fabricPort}/`,
        RESTATE_DISABLE_TELEMETRY: 'true',
        RESTATE_LOG_FORMAT: 'compact',
        RESTATE_LOG_DISABLE_ANSI_CODES: 'true',
        RESTATE_LOG_FILTER: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const admin = `http://127.0.0.1:${adminPort}`;
  const ingress = `http://127.0.0.1:${ingressPort}`;
  let stopped = false;
  const stop = async () => {
    if (!stopped) {
      stopped = true;
      await stopProcess(child, exited, 5_000);
      rmSync(base, { recursive: true, force: true });
    }
  };
  try {
    await waitForHttp([`${admin}/health`, `${ingress}/restate/health`], child, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    ingress,
    admin,
    output: () => output,
    async register(uri) {
      const response = await fetch(`${admin}/deployments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ uri, force: true }),
      });
      if (!response.ok)
        throw new Error(`registering ${uri}: HTTP ${response.status} ${await response.text()}`);
    },
    async query(sql) {
      const response = await fetch(`${admin}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query: sql }),
      });
      if (!response.ok) throw new Error(`query ${sql}: HTTP ${response.status} ${await response.text()}`);
      return ((await response.json()) as { rows: Record<string, unknown>[] }).rows;
    },
    stop,
  };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
export async function stopProcess(
  child: ChildProcess,
  exited: Promise<void>,
  graceMs: number,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Resolves once every URL answers 200; rejects when `child` exits first or after 20 s. */
async function waitForHttp(urls: string[], child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (const url of urls) {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`restate-server exited before it was ready:\n${output()}`);
      }
      if (Date.now() > deadline)
        throw new Error(`restate-server did not answer ${url} in 20 s:\n${output()}`);
      const ok = await fetch(url).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
