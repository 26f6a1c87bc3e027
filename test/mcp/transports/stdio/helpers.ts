/** Shared helpers of the stdio transport's tests: fixture paths, a connected SDK client, process checks. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import {
  StdioTransport,
  type StdioTransportOptions,
} from '../../../../src/mcp/transports/stdio/stdio-transport.js';
import { alive, processes, processesMatching } from '../../../fixtures/processes.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const FIXTURE = path.join(ROOT, 'test/fixtures/stdio-server.mjs');
export const WRAPPER = path.join(ROOT, 'test/fixtures/stdio-wrapper.sh');
export const HOST = path.join(ROOT, 'test/fixtures/stdio-host.mjs');
export const EVERYTHING = path.join(
  ROOT,
  'node_modules/@modelcontextprotocol/server-everything/dist/index.js',
);

/** Transports made by {@link fixture}; the tests' afterEach closes them all. */
export const opened: StdioTransport[] = [];

/** A transport running the fixture server with `args`, named "fixture", with a short close grace. */
export function fixture(args: string[] = [], options: Partial<StdioTransportOptions> = {}): StdioTransport {
  const transport = new StdioTransport({
    command: process.execPath,
    args: [FIXTURE, ...args],
    serverName: 'fixture',
    closeGraceMs: 200,
    ...options,
  });
  opened.push(transport);
  return transport;
}

/** Closes every transport made by {@link fixture}. */
export async function closeAll(): Promise<void> {
  await Promise.all(opened.splice(0).map((transport) => transport.close()));
}

/** An SDK client connected through `transport`. */
export async function connect(transport: StdioTransport): Promise<Client> {
  const client = new Client({ name: 'agentwire-test', version: '0.0.0' });
  await client.connect(transport);
  return client;
}

/** The text of the first content block of a `tools/call` result. */
export async function callText(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  const first = (result.content as { type: string; text?: string }[])[0];
  return first?.text ?? '';
}

/** True while `pid` is a running process (zombies, which PID 1 here may never reap, do not count). */
export function isRunning(pid: number): boolean {
  return alive(pid);
}

/** Running processes (not zombies) whose command line contains `marker`, as "pid command" lines. */
export function processesWith(marker: string): string[] {
  return processesMatching(marker).map(({ pid, state, args }) => `${pid} ${state} ${args}`);
}

/** Running processes (not zombies) in any of the given process groups, as "pid pgid command" lines. */
export function processesInGroups(groups: ReadonlySet<number>): string[] {
  return processes()
    .filter(({ pgid, state }) => groups.has(pgid) && state !== 'Z')
    .map(({ pid, pgid, state, args }) => `${pid} ${pgid} ${state} ${args}`);
}

/** Polls `check` every 20 ms until it holds, or throws naming `what` after `ms`. */
export async function waitFor(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
