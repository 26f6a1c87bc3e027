/**
 * VS Code's `${input:ID}` references (its `inputs` array declares each: `id`, `description`, `password`):
 * given on the command line with `--input ID=value`, or, on a terminal, asked for once per ID when the
 * config is read (a `password` input without echo). Without a terminal a missing value leaves the entry
 * invalid, with the loader's error naming `input:ID`.
 */
import { createInterface } from 'node:readline/promises';
import { Writable } from 'node:stream';
import { UsageError } from '../usage-error.js';

const REFERENCE = /\$\{input:([^}]+)\}/g;

/** `--input ID=value` pairs to a record. @throws UsageError for a pair without `=` or with an empty ID. */
export function parseInputPairs(pairs: readonly string[]): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    // The value may be a secret: the message names the problem, never the text.
    if (eq <= 0) throw new UsageError('--input expects ID=value with a non-empty ID');
    inputs[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return inputs;
}

interface InputDeclaration {
  description?: string;
  password?: boolean;
}

/** What the `inputs` array of a VS Code config declares, by ID. */
function declarations(config: unknown): Map<string, InputDeclaration> {
  const found = new Map<string, InputDeclaration>();
  const inputs = (config as { inputs?: unknown } | null)?.inputs;
  if (!Array.isArray(inputs)) return found;
  for (const input of inputs as unknown[]) {
    if (typeof input !== 'object' || input === null) continue;
    const { id, description, password } = input as Record<string, unknown>;
    if (typeof id !== 'string') continue;
    found.set(id, {
      ...(typeof description === 'string' && { description }),
      ...(password === true && { password: true }),
    });
  }
  return found;
}

/** The IDs `config` references (only in the entries `names` when given), in order of first use. */
export function referencedInputs(config: unknown, names?: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const match of JSON.stringify(scanned(config, names) ?? null).matchAll(REFERENCE)) ids.add(match[1]!);
  return [...ids];
}

/** The entries `names` of `config`'s `mcpServers` / `servers`, or the whole config without `names`. */
function scanned(config: unknown, names: readonly string[] | undefined): unknown {
  if (names === undefined || typeof config !== 'object' || config === null) return config;
  const { mcpServers, servers } = config as { mcpServers?: unknown; servers?: unknown };
  const entries = (mcpServers ?? servers ?? {}) as Record<string, unknown>;
  return names.map((name) => (typeof entries === 'object' && entries !== null ? entries[name] : undefined));
}

/** Whether a person can be asked: stdin and stderr are both terminals. */
function canAsk(): boolean {
  return process.stdin.isTTY === true && process.stderr.isTTY === true;
}

/**
 * The values for every `${input:ID}` of `config` (of its entries `names` when given): `given` ones, then,
 * on a terminal, the answers to a prompt per missing ID. IDs that stay missing are left out (the loader
 * reports them).
 */
export async function resolveInputs(
  config: unknown,
  given: Readonly<Record<string, string>>,
  names?: readonly string[],
): Promise<Record<string, string>> {
  const values: Record<string, string> = { ...given };
  const missing = referencedInputs(config, names).filter((id) => values[id] === undefined);
  if (missing.length === 0 || !canAsk()) return values;
  const declared = declarations(config);
  for (const id of missing) {
    const declaration = declared.get(id) ?? {};
    const label = declaration.description === undefined ? id : `${declaration.description} (${id})`;
    values[id] = await ask(`${label}: `, declaration.password === true);
  }
  return values;
}

/** Asks on the terminal (prompt on stderr); a secret's typing is not echoed. */
async function ask(question: string, secret: boolean): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: process.stdin, output, terminal: true });
  try {
    const answer = rl.question(question);
    muted = secret;
    return await answer;
  } finally {
    rl.close();
    if (secret) process.stderr.write('\n');
  }
}
