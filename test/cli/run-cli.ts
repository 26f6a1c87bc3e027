/** Runs the CLI in-process and captures what it writes; shared by the CLI tests. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { quote } from 'shell-quote';
import { runCli } from '../../src/cli/program.js';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `agentwire <argv>` in-process. */
export async function cli(argv: string[], signal?: AbortSignal): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: (text: string) => {
      stdout += text;
    },
    stderr: (text: string) => {
      stderr += text;
    },
    ...(signal && { signal }),
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

const modules = path.resolve('node_modules/@modelcontextprotocol');

/** A `--stdio` command line for a real server from node_modules (quoted, as paths may hold spaces). */
export function serverCommand(server: 'everything' | 'filesystem', ...args: string[]): string {
  const script = path.join(modules, `server-${server}`, 'dist', 'index.js');
  return quote([process.execPath, script, ...args]);
}

export const EVERYTHING = serverCommand('everything');

/** Command lines of running processes that contain `marker` (Linux /proc), to prove a server was stopped. */
export function processesWith(marker: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ');
      if (cmdline.includes(marker)) found.push(cmdline.trim());
    } catch {
      // exited while we looked
    }
  }
  return found;
}
