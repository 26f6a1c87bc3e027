import { readFileSync } from 'node:fs';
import type { Tool } from '../../src/core/tool.js';
import { BuiltinToolError, type DefaultToolsOptions, defaultTools } from '../../src/tools/index.js';

/** Runs one built-in tool by name. */
export type RunTool = (
  name: string,
  input: Record<string, unknown>,
  signal?: AbortSignal,
) => Promise<unknown>;

/** The default tools for `options`, callable by name. */
export function toolRunner(options: DefaultToolsOptions): RunTool {
  const tools = new Map<string, Tool>(defaultTools(options).map((t) => [t.name, t]));
  return (name, input, signal) => {
    const tool = tools.get(name);
    if (!tool) throw new Error(`no tool ${name}`);
    return tool.execute(input, signal ? { signal } : {});
  };
}

/** The BuiltinToolError `promise` rejects with; throws when it resolves or rejects with something else. */
export async function failure(promise: Promise<unknown>): Promise<BuiltinToolError> {
  const error = await promise.then(
    (value: unknown) => new Error(`expected a BuiltinToolError, got the result ${JSON.stringify(value)}`),
    (e: unknown) => e,
  );
  if (!(error instanceof BuiltinToolError))
    throw new Error(`expected a BuiltinToolError, got ${String(error)}`);
  return error;
}

/**
 * True while process `pid` runs. Signal 0 delivers nothing; on Linux a zombie (killed, re-parented to a
 * PID 1 that does not reap) counts as gone.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}
