/**
 * `agentwire configs`: the MCP servers configured in the hosts people use (Claude Code, Claude Desktop,
 * Cursor, VS Code, Windsurf, Codex; host-configs/locations.ts), each with the file it came from. Nothing
 * is started. `--server <name>` without `--config` (in `tools`, `call`, `run`) takes the first of these
 * that has the name: the others are listed as `shadowed`.
 */
import type { Command } from 'commander';
import type { MCPServerConfig } from '../../mcp/index.js';
import type { CommandContext } from '../context.js';
import { discoverHostConfigs, type HostConfigSource } from '../host-configs/discover.js';
import { parseInputPairs } from '../host-configs/inputs.js';
import { hostConfigLocations, processEnvironment } from '../host-configs/locations.js';
import { singleLine } from '../io.js';
import { transportKind } from '../server-status.js';

interface ConfigsOptions {
  json?: boolean;
  input?: string[];
}

/** One server of one host file. */
interface ConfiguredRow {
  name: string;
  /** `stdio`, `http`, `sse`; `-` for an entry that could not be read or is disabled. */
  transport: string;
  /** `ok`; `shadowed` when an earlier file has the same name; `disabled`; `invalid` (see `error`). */
  status: 'ok' | 'shadowed' | 'disabled' | 'invalid';
  host: string;
  scope: string;
  file: string;
  error?: string;
}

/** Registers `configs` on the program. Exit code 0, also when a file cannot be read (a warning says so). */
export function registerConfigsCommand(program: Command, context: CommandContext): void {
  program
    .command('configs')
    .description("list the MCP servers in the hosts' config files (Claude, Cursor, VS Code, Windsurf, Codex)")
    .option('--json', 'print the servers as JSON')
    .option(
      '--input <ID=value>',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's reference syntax, not a JS placeholder.
      'value of a ${input:ID} in the configs (repeatable)',
      (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
    )
    .action(async (options: ConfigsOptions) => {
      const { io } = context;
      const sources = await discoverHostConfigs({ inputs: parseInputPairs(options.input ?? []) });
      const rows = rowsOf(sources);
      for (const source of sources) {
        if ('error' in source) io.stderr(`warning: ${singleLine(source.error.message)}\n`);
      }
      if (options.json) return void io.stdout(`${JSON.stringify({ servers: rows }, null, 2)}\n`);
      if (rows.length === 0) {
        const places = hostConfigLocations(processEnvironment()).map((l) => `  ${l.file}\n`);
        io.stdout(`no MCP servers in the hosts' configs; looked in:\n${[...new Set(places)].join('')}`);
        return;
      }
      io.stdout(formatRows(rows));
      // What `tools` would say to do about an entry that cannot be used (a `${input:ID}` without a value).
      const { serverHints } = await import('../failure-explanations.js');
      for (const source of sources) {
        if (!('config' in source)) continue;
        for (const { name, error } of source.config.invalid) io.stderr(serverHints(name, error));
      }
    });
}

function rowsOf(sources: readonly HostConfigSource[]): ConfiguredRow[] {
  const seen = new Set<string>();
  const rows: ConfiguredRow[] = [];
  for (const source of sources) {
    if (!('config' in source)) continue;
    const { host, scope, file } = source.location;
    const where = { host, scope, file };
    for (const row of serverRows(source.config)) {
      const shadowed = row.status !== 'disabled' && seen.has(row.name);
      if (row.status !== 'disabled') seen.add(row.name);
      rows.push({ ...row, ...(shadowed && { status: 'shadowed' }), ...where });
    }
  }
  return rows;
}

/** A file's servers in its own order: valid, then invalid, then disabled. */
function serverRows(config: MCPServerConfig): Omit<ConfiguredRow, 'host' | 'scope' | 'file'>[] {
  return [
    ...config.servers.map((entry) => ({
      name: entry.name,
      transport: transportKind(entry),
      status: 'ok' as const,
    })),
    ...config.invalid.map(({ name, error }) => ({
      name,
      transport: '-',
      status: 'invalid' as const,
      error: singleLine(error.message),
    })),
    ...config.disabled.map((name) => ({ name, transport: '-', status: 'disabled' as const })),
  ];
}

function formatRows(rows: readonly ConfiguredRow[]): string {
  const cells = [
    ['NAME', 'TRANSPORT', 'STATUS', 'HOST', 'FILE'],
    ...rows.map((row) => [row.name, row.transport, row.status, `${row.host} (${row.scope})`, row.file]),
  ];
  const widths = [0, 1, 2, 3].map((column) => Math.max(...cells.map((cell) => cell[column]!.length)));
  const lines = cells.map((cell) =>
    cell
      .map((text, column) => text.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  const errors = rows.flatMap((row) => (row.error === undefined ? [] : [`${row.name}: ${row.error}`]));
  return [...lines, ...errors].map((line) => `${line}\n`).join('');
}
