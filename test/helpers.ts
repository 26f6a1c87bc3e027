/** Shared test helpers: where the real servers and fixtures are, and small utilities. */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MCPStdioServer } from '../src/mcp/config/server-spec.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = (name: string, file: string) =>
  path.join(ROOT, 'node_modules', '@modelcontextprotocol', name, 'dist', file);

export const EVERYTHING = pkg('server-everything', 'index.js');
export const FILESYSTEM = pkg('server-filesystem', 'index.js');
export const MEMORY = pkg('server-memory', 'index.js');
export const SCRIPTED = path.join(ROOT, 'test', 'fixtures', 'scripted-server.mjs');

/** server-everything over stdio, started from node_modules. */
export const everythingStdio = (): MCPStdioServer => ({ command: process.execPath, args: [EVERYTHING] });

/** The scripted fixture server with the given FIXTURE_* environment. */
export const scripted = (env: Record<string, string> = {}): MCPStdioServer => ({
  command: process.execPath,
  args: [SCRIPTED],
  env,
});

/** A fresh temporary directory, removed by the returned function. */
export function tempDir(prefix = 'agentwire-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The JSON-RPC messages a scripted server logged (FIXTURE_LOG). */
export function readLog(file: string): { method?: string; id?: number; params?: Record<string, unknown> }[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** Polls `check` every 10 ms until it returns true, or fails after `ms`. */
export async function waitUntil(check: () => boolean, ms = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** This test process's children whose command line contains `marker` (Linux /proc), to prove a server stopped. */
export function children(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 (ppid) follows the `(comm)` field, which may itself hold spaces and parentheses.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (ppid === process.pid && cmdline.includes(marker)) found.push(Number(entry));
    } catch {
      // exited while we looked
    }
  }
  return found;
}

/** server-everything's tools, in its order, for a client that declares no sampling/elicitation/roots. */
export const EVERYTHING_TOOLS = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  'trigger-long-running-operation',
  'simulate-research-query',
];
