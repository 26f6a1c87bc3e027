/**
 * Host configuration discovery through the built CLI, in a fake home (HOME, XDG_CONFIG_HOME, CODEX_HOME in
 * temporary directories) and a fake project directory holding every host's documented files: `agentwire
 * configs` lists each server with the file it came from; `--server <name>` without `--config` uses the
 * first definition; `${input:ID}` takes `--input ID=value`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { quote } from 'shell-quote';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needsProgram } from '../fixtures/system-programs.js';
import { EVERYTHING, FILESYSTEM, tempDir, waitUntil } from '../helpers.js';
import { ensureBuilt, MAIN, runBuilt } from './built-cli-env.js';

const root = tempDir('agentwire-hosts-');
const base = realpathSync(root.dir);
const home = path.join(base, 'home');
const project = path.join(base, 'project');
const xdg = path.join(home, '.config');
const codexHome = path.join(home, '.codex');
const served = path.join(base, 'served');

const node = process.execPath;
const everything = { command: node, args: [EVERYTHING] };

function write(file: string, text: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const files = {
  claude: path.join(home, '.claude.json'),
  mcpJson: path.join(project, '.mcp.json'),
  cursorProject: path.join(project, '.cursor', 'mcp.json'),
  vscodeProject: path.join(project, '.vscode', 'mcp.json'),
  codexProject: path.join(project, '.codex', 'config.toml'),
  desktop: path.join(xdg, 'Claude', 'claude_desktop_config.json'),
  cursorUser: path.join(home, '.cursor', 'mcp.json'),
  vscodeUser: path.join(xdg, 'Code', 'User', 'mcp.json'),
  windsurf: path.join(home, '.codeium', 'windsurf', 'mcp_config.json'),
  codexUser: path.join(codexHome, 'config.toml'),
};

beforeAll(() => {
  ensureBuilt();
  mkdirSync(served, { recursive: true });
  write(
    files.claude,
    json({
      numStartups: 3,
      mcpServers: { 'claude-user': { type: 'http', url: 'https://claude-user.example/mcp' } },
      projects: {
        [project]: { mcpServers: { 'claude-local': { type: 'stdio', ...everything } } },
        '/elsewhere': { mcpServers: { 'not-here': { type: 'stdio', ...everything } } },
      },
    }),
  );
  write(
    files.mcpJson,
    json({ mcpServers: { 'team-tools': { type: 'sse', url: 'https://team.example/sse' } } }),
  );
  write(files.cursorProject, json({ mcpServers: { everything } }));
  write(
    files.vscodeProject,
    `// VS Code writes JSONC
{
  "inputs": [{ "type": "promptString", "id": "root", "description": "Folder to serve" }],
  "servers": {
    "files": { "type": "stdio", "command": ${JSON.stringify(node)}, "args": [${JSON.stringify(FILESYSTEM)}, "\${input:root}"] },
  },
}
`,
  );
  write(
    files.codexProject,
    `[mcp_servers.codex-project]\ncommand = ${JSON.stringify(node)}\nargs = [${JSON.stringify(EVERYTHING)}]\nenabled = false\n`,
  );
  write(files.desktop, json({ mcpServers: { everything, 'desktop-only': everything } }));
  write(files.cursorUser, json({ mcpServers: { 'cursor-user': { url: 'https://cursor.example/mcp' } } }));
  write(
    files.vscodeUser,
    json({ servers: { 'vscode-user': { type: 'http', url: 'https://vscode.example/mcp' } } }),
  );
  write(
    files.windsurf,
    json({ mcpServers: { 'windsurf-remote': { serverUrl: 'https://windsurf.example/mcp' } } }),
  );
  write(
    files.codexUser,
    [
      'model = "o4"',
      '',
      '[mcp_servers.codex-everything]',
      `command = ${JSON.stringify(node)}`,
      `args = [${JSON.stringify(EVERYTHING)}]`,
      'enabled_tools = ["echo"]',
      '',
      '[mcp_servers.codex-remote]',
      'url = "https://codex.example/mcp"',
      'bearer_token_env_var = "CODEX_REMOTE_TOKEN"',
      '',
    ].join('\n'),
  );
}, 120_000);
afterAll(() => root.remove());

function agentwire(args: string[]) {
  return runBuilt(args, {
    cwd: project,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      XDG_CONFIG_HOME: xdg,
      CODEX_HOME: codexHome,
      CODEX_REMOTE_TOKEN: 'codex-token-SECRET',
    },
  });
}

describe('host configuration discovery', () => {
  it('lists every server of every host with the file it came from', async () => {
    const run = await agentwire(['configs']);
    const rows = [
      ['NAME', 'TRANSPORT', 'STATUS', 'HOST', 'FILE'],
      ['claude-local', 'stdio', 'ok', 'Claude Code (local)', files.claude],
      ['team-tools', 'sse', 'ok', 'Claude Code (project)', files.mcpJson],
      ['everything', 'stdio', 'ok', 'Cursor (project)', files.cursorProject],
      ['files', '-', 'invalid', 'VS Code (project)', files.vscodeProject],
      ['codex-project', '-', 'disabled', 'Codex (project)', files.codexProject],
      ['claude-user', 'http', 'ok', 'Claude Code (user)', files.claude],
      ['everything', 'stdio', 'shadowed', 'Claude Desktop (user)', files.desktop],
      ['desktop-only', 'stdio', 'ok', 'Claude Desktop (user)', files.desktop],
      ['cursor-user', 'http', 'ok', 'Cursor (user)', files.cursorUser],
      ['vscode-user', 'http', 'ok', 'VS Code (user)', files.vscodeUser],
      ['windsurf-remote', 'http', 'ok', 'Windsurf (user)', files.windsurf],
      ['codex-everything', 'stdio', 'ok', 'Codex (user)', files.codexUser],
      ['codex-remote', 'http', 'ok', 'Codex (user)', files.codexUser],
    ];
    const widths = [0, 1, 2, 3].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
    const table = rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  '));
    expect(run).toEqual({
      code: 0,
      stdout: `${[
        ...table,
        `files: config ${files.vscodeProject}: server "files": "args[1]" uses \${input:root}, which has no value: pass it in the inputs option`,
      ].join('\n')}\n`,
      // What `tools --server files` would say to do about it.
      stderr: 'hint: files: give it with --input root=<value> (on a terminal it is asked for)\n',
    });
  });

  it('--input gives the input:ID value, and --json lists the same servers', async () => {
    const run = await agentwire(['configs', '--json', '--input', `root=${served}`]);
    expect(run.code).toBe(0);
    const servers = JSON.parse(run.stdout).servers as { name: string; status: string; file: string }[];
    expect(servers.find((server) => server.name === 'files')).toEqual({
      name: 'files',
      transport: 'stdio',
      status: 'ok',
      host: 'VS Code',
      scope: 'project',
      file: files.vscodeProject,
    });
    expect(servers.map((server) => server.name)).toEqual([
      'claude-local',
      'team-tools',
      'everything',
      'files',
      'codex-project',
      'claude-user',
      'everything',
      'desktop-only',
      'cursor-user',
      'vscode-user',
      'windsurf-remote',
      'codex-everything',
      'codex-remote',
    ]);
  });

  it('--server without --config uses the first host that defines the name', async () => {
    const run = await agentwire(['call', '--server', 'everything', 'echo', '{"message":"from cursor"}']);
    expect(run).toEqual({ code: 0, stdout: 'Echo: from cursor\n', stderr: '' });
  });

  it("a Codex entry keeps its enabled_tools, and a VS Code entry's input:ID comes from --input", async () => {
    const tools = await agentwire(['tools', '--server', 'codex-everything', '--json']);
    expect(tools.code).toBe(0);
    expect(JSON.parse(tools.stdout).map((tool: { name: string }) => tool.name)).toEqual(['echo']);

    const files = await agentwire([
      'call',
      '--server',
      'files',
      '--input',
      `root=${served}`,
      'list_allowed_directories',
    ]);
    expect(files).toEqual({ code: 0, stdout: `Allowed directories:\n${served}\n`, stderr: '' });
  });

  it('a missing input:ID without a terminal is a usage error that names --input', async () => {
    const run = await agentwire(['tools', '--server', 'files']);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `error: config ${files.vscodeProject}: server "files": "args[1]" uses \${input:root}, which has no value: pass it in the inputs option\n` +
        'hint: give it with --input root=<value> (on a terminal it is asked for)\n',
    });
  });

  it('a name no host defines says how to list them', async () => {
    const run = await agentwire(['tools', '--server', 'nowhere']);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: no host configuration defines a server "nowhere"; list them with "agentwire configs", or give --config <file>\n',
    });
  });
});

describe.skipIf(!needsProgram('tmux', import.meta.url))(
  'input:ID on a terminal (a real pseudo-terminal: tmux)',
  () => {
    const socket = `agentwire-inputs-${process.pid}`;
    const tmux = (...args: string[]) =>
      execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
    afterAll(() => {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    });

    it('asks for a missing value once, then uses it', async () => {
      const environment = `env -i PATH=${quote([process.env.PATH ?? ''])} HOME=${quote([home])} XDG_CONFIG_HOME=${quote([xdg])} CODEX_HOME=${quote([codexHome])}`;
      const command = `${environment} ${quote([node, MAIN, 'call', '--server', 'files', 'list_allowed_directories'])}; echo "exit=$?"; sleep 60`;
      tmux('new-session', '-d', '-x', '200', '-y', '50', '-c', project, command);
      const screen = () => tmux('capture-pane', '-p', '-J');
      await waitUntil(() => screen().includes('Folder to serve (root): '), 15_000, 'the prompt');
      tmux('send-keys', '-l', served);
      tmux('send-keys', 'Enter');
      await waitUntil(() => screen().includes('exit='), 30_000, 'the call to end');
      const lines = screen()
        .split('\n')
        .filter((line) => line.trim() !== '');
      expect(lines).toEqual([`Folder to serve (root): ${served}`, 'Allowed directories:', served, 'exit=0']);
    }, 60_000);
  },
);
