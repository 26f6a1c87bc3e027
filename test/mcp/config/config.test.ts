// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are configuration-file ${…} references.
import { writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../src/mcp/client/create-client.js';
import {
  getServerEntry,
  loadServerConfig,
  type MCPServerConfig,
  parseServerConfig,
} from '../../../src/mcp/config/load.js';
import { MCPConfigError } from '../../../src/mcp/protocol/errors.js';
import { ROOT, tempDir } from '../../helpers.js';

const CONFIGS = path.join(ROOT, 'test', 'fixtures', 'configs');
const CLAUDE = path.join(CONFIGS, 'claude-desktop.json');
const VSCODE_DIR = path.join(CONFIGS, 'vscode');
const VSCODE = path.join(VSCODE_DIR, '.vscode', 'mcp.json');

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** The MCPConfigError `run` throws (fails the test when it throws something else or nothing). */
function configError(run: () => unknown): MCPConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(MCPConfigError);
    return error as MCPConfigError;
  }
  throw new Error('expected an MCPConfigError');
}

/**
 * `config`, or the first invalid entry's error thrown: the loader records an entry's error in `invalid`
 * rather than throwing it, so that the other entries stay usable.
 */
function strict(config: MCPServerConfig): MCPServerConfig {
  const first = config.invalid[0];
  if (first) throw first.error;
  return config;
}

async function configErrorAsync(run: () => Promise<unknown>): Promise<MCPConfigError> {
  const error = await run().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(MCPConfigError);
  return error as MCPConfigError;
}

describe('loadServerConfig: Claude Desktop / Cursor format', () => {
  it('loads stdio and HTTP entries with ${VAR} and ${VAR:-default} interpolated from the given env', async () => {
    const env = { PROJECTS: '/home/ann/projects', GITHUB_TOKEN: 'ghp_secret' };
    const config = await loadServerConfig(CLAUDE, { env });
    expect(config).toEqual({
      source: CLAUDE,
      format: 'mcpServers',
      disabled: ['retired'],
      invalid: [],
      warnings: [
        {
          file: CLAUDE,
          entry: 'legacy',
          key: 'note',
          suggestion: undefined,
          message: `config ${CLAUDE}: server "legacy": unknown key "note" ignored`,
        },
      ],
      servers: [
        {
          name: 'filesystem',
          kind: 'stdio',
          server: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/ann/projects/notes'],
            env: { LOG_LEVEL: 'info' },
          },
        },
        {
          name: 'github',
          kind: 'http',
          url: 'https://api.example.com/mcp',
          options: { headers: { Authorization: 'Bearer ghp_secret' }, transport: 'auto' },
          allowTools: ['search_*', 'get_issue'],
          blockTools: ['search_code'],
        },
        {
          name: 'legacy',
          kind: 'http',
          url: 'http://localhost:3001/sse',
          options: { transport: 'sse' },
        },
      ],
    });
  });

  it('uses the variable over the default of ${VAR:-default} when it is set', async () => {
    const env = { PROJECTS: '/p', GITHUB_TOKEN: 't', LOG_LEVEL: 'debug' };
    const config = await loadServerConfig(CLAUDE, { env });
    const filesystem = config.servers[0]!;
    expect(filesystem.kind === 'stdio' && filesystem.server.env).toEqual({ LOG_LEVEL: 'debug' });
  });

  it('names the file, the entry, the field and the variable when a variable is unset, never a value', async () => {
    const error = await configErrorAsync(() =>
      loadServerConfig(CLAUDE, { env: { PROJECTS: '/p', LOG_LEVEL: 'super-secret-level' } }).then(strict),
    );
    expect(error.message).toBe(
      `config ${CLAUDE}: server "github": "headers.Authorization" uses \${GITHUB_TOKEN}, which is not set in the environment`,
    );
    expect([error.file, error.entry, error.field, error.variable]).toEqual([
      CLAUDE,
      'github',
      'headers.Authorization',
      'GITHUB_TOKEN',
    ]);
    expect(error.server).toBe('github');
    expect(error.message).not.toContain('super-secret-level');
  });

  it('reads process.env when no env is given', async () => {
    process.env.AGENTWIRE_TEST_TOKEN = 'from-process';
    cleanups.push(() => delete process.env.AGENTWIRE_TEST_TOKEN);
    const config = parseServerConfig({
      mcpServers: { s: { url: 'https://x.example/mcp', headers: { 'X-Token': '${AGENTWIRE_TEST_TOKEN}' } } },
    });
    const entry = config.servers[0]!;
    expect(entry.kind === 'http' && entry.options.headers).toEqual({ 'X-Token': 'from-process' });
  });
});

describe('loadServerConfig: VS Code format', () => {
  it('loads .vscode/mcp.json: types, ${env:…}, ${input:…}, ${workspaceFolder}, ${userHome}, envFile, cwd', async () => {
    const config = await loadServerConfig(VSCODE, {
      env: { USER_NAME: 'ann', TENANT: 'acme' },
      inputs: { 'api-key': 'key-123' },
    });
    expect(config).toEqual({
      source: VSCODE,
      format: 'servers',
      disabled: [],
      invalid: [],
      warnings: [],
      servers: [
        {
          name: 'local',
          kind: 'stdio',
          server: {
            command: `${VSCODE_DIR}/bin/server`,
            args: ['--home', homedir(), '--user', 'ann'],
            env: { FROM_FILE: 'file value', SHARED: 'from env', API_KEY: 'key-123' },
            cwd: path.join(VSCODE_DIR, 'tools'),
          },
        },
        {
          name: 'remote',
          kind: 'http',
          url: 'https://mcp.example.com/acme/mcp',
          options: { transport: 'auto' },
        },
        {
          name: 'strict',
          kind: 'http',
          url: 'http://127.0.0.1:3001/mcp',
          options: { transport: 'streamable-http' },
        },
      ],
    });
  });

  it('says how to supply an ${input:…} value that was not given', async () => {
    const error = await configErrorAsync(() =>
      loadServerConfig(VSCODE, { env: { USER_NAME: 'ann', TENANT: 'acme' } }).then(strict),
    );
    expect(error.message).toBe(
      `config ${VSCODE}: server "local": "env.API_KEY" uses \${input:api-key}, which has no value: pass it in the inputs option`,
    );
    expect(error.variable).toBe('input:api-key');
  });

  it('resolves relative paths against baseDir when one is given', async () => {
    const config = await loadServerConfig(VSCODE, {
      env: { USER_NAME: 'ann', TENANT: 'acme' },
      inputs: { 'api-key': 'k' },
      baseDir: VSCODE_DIR,
    });
    const local = config.servers[0]!;
    expect(local.kind === 'stdio' && local.server.cwd).toBe(path.join(VSCODE_DIR, 'tools'));
  });
});

describe('loadServerConfig: files that cannot be used', () => {
  it('reports a missing file with its code', async () => {
    const missing = path.join(CONFIGS, 'no-such-file.json');
    const error = await configErrorAsync(() => loadServerConfig(missing));
    expect(error.message).toBe(`config ${missing}: cannot be read (ENOENT)`);
    expect(error.file).toBe(missing);
  });

  it('reports a file that is not JSON with the parser message', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const file = path.join(dir, 'mcp.json');
    writeFileSync(file, '{ "mcpServers": ');
    const error = await configErrorAsync(() => loadServerConfig(file));
    expect(error.message).toBe(`config ${file}: is not valid JSON: ValueExpected at line 1, column 17`);
  });

  it('reads JSONC as VS Code writes it: comments and trailing commas', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const file = path.join(dir, 'mcp.json');
    writeFileSync(file, '{ // servers\n "servers": { "a": { "command": "x", /* why */ }, }, }');
    const config = await loadServerConfig(file);
    expect(config.servers).toEqual([{ name: 'a', kind: 'stdio', server: { command: 'x' } }]);
  });

  it('accepts a file that starts with a byte-order mark', async () => {
    const { dir, remove } = tempDir();
    cleanups.push(remove);
    const file = path.join(dir, 'mcp.json');
    writeFileSync(file, '\uFEFF{ "mcpServers": { "a": { "command": "a-server" } } }');
    const config = await loadServerConfig(file);
    expect(config.servers).toEqual([{ name: 'a', kind: 'stdio', server: { command: 'a-server' } }]);
  });

  it('rejects a top level that is not an object', async () => {
    const file = path.join(CONFIGS, 'array.json');
    const error = await configErrorAsync(() => loadServerConfig(file));
    expect(error.message).toBe(`config ${file}: must be a JSON object`);
  });
});

describe('parseServerConfig: malformed entries', () => {
  const cases: [string, unknown, string][] = [
    [
      'no server key',
      { servers2: {} },
      'has no "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code) object',
    ],
    ['both server keys', { mcpServers: {}, servers: {} }, 'has both "mcpServers" and "servers"; keep one'],
    ['servers not an object', { mcpServers: [] }, '"mcpServers" must be an object'],
    ['an empty name', { servers: { '': { command: 'x' } } }, '"servers" has an entry with an empty name'],
    ['an entry that is not an object', { mcpServers: { gh: 'npx gh' } }, 'server "gh": must be an object'],
    [
      'both command and url',
      { mcpServers: { gh: { command: 'x', url: 'https://a.example' } } },
      'server "gh": has both "command" and "url"; keep one',
    ],
    [
      'neither command nor url',
      { mcpServers: { gh: { args: [] } } },
      'server "gh": needs "command" (a local server) or "url" (a remote one)',
    ],
    [
      'a url that is not a string',
      { mcpServers: { github: { url: 42 } } },
      'server "github": "url" must be a string',
    ],
    [
      'a command that is not a string',
      { mcpServers: { gh: { command: ['npx'] } } },
      'server "gh": "command" must be a string',
    ],
    ['an empty command', { mcpServers: { gh: { command: '' } } }, 'server "gh": "command" must not be empty'],
    [
      'args not an array',
      { mcpServers: { gh: { command: 'x', args: '-y' } } },
      'server "gh": "args" must be an array of strings',
    ],
    [
      'an arg that is not a string',
      { mcpServers: { gh: { command: 'x', args: ['--port', 3000] } } },
      'server "gh": "args[1]" must be a string',
    ],
    [
      'env not an object',
      { mcpServers: { gh: { command: 'x', env: ['A=1'] } } },
      'server "gh": "env" must be an object of strings',
    ],
    [
      'an env value that is not a string',
      { mcpServers: { gh: { command: 'x', env: { PORT: 3000 } } } },
      'server "gh": "env.PORT" must be a string',
    ],
    [
      'cwd not a string',
      { mcpServers: { gh: { command: 'x', cwd: true } } },
      'server "gh": "cwd" must be a string',
    ],
    [
      'headers not an object',
      { mcpServers: { gh: { url: 'https://a.example', headers: 'Bearer x' } } },
      'server "gh": "headers" must be an object of strings',
    ],
    [
      'a header value that is not a string',
      { mcpServers: { gh: { url: 'https://a.example', headers: { 'X-Retries': 3 } } } },
      'server "gh": "headers.X-Retries" must be a string',
    ],
    [
      'a url that does not parse',
      { mcpServers: { gh: { url: 'not a url?token=abc' } } },
      'server "gh": "url" is not a valid URL',
    ],
    [
      'a url that is not http(s)',
      { mcpServers: { gh: { url: 'ws://a.example/mcp' } } },
      'server "gh": "url" must be an http: or https: URL (got ws:)',
    ],
    [
      'an unknown type',
      { servers: { gh: { type: 'websocket', url: 'https://a.example' } } },
      'server "gh": "type" must be "stdio", "http" or "sse" (got "websocket")',
    ],
    [
      'a type that is not a string',
      { servers: { gh: { type: 1, command: 'x' } } },
      'server "gh": "type" must be a string',
    ],
    [
      'type stdio with a url',
      { servers: { gh: { type: 'stdio', url: 'https://a.example' } } },
      'server "gh": has "url" but "type" is "stdio"',
    ],
    [
      'type http without a url',
      { servers: { gh: { type: 'http', headers: {} } } },
      'server "gh": needs "url" (type is "http")',
    ],
    [
      'type stdio without a command',
      { servers: { gh: { type: 'stdio' } } },
      'server "gh": needs "command" (type is "stdio")',
    ],
    [
      'type http with a command',
      { servers: { gh: { type: 'http', command: 'x' } } },
      'server "gh": has "command" but "type" is "http"',
    ],
    [
      'disabled that is not a boolean',
      { mcpServers: { gh: { command: 'x', disabled: 'yes' } } },
      'server "gh": "disabled" must be true or false',
    ],
    [
      'allowTools not an array',
      { mcpServers: { gh: { command: 'x', allowTools: 'echo' } } },
      'server "gh": "allowTools" must be an array of strings',
    ],
    [
      'an unsupported reference',
      { servers: { gh: { command: '${command:pick}' } } },
      'server "gh": "command" uses ${command:pick}, which cannot be resolved by agentwire (supported: ${VAR}, ${env:VAR}, ${VAR:-default}, ${input:ID}, ${workspaceFolder}, ${userHome})',
    ],
    [
      '${workspaceFolder} with no base directory',
      { servers: { gh: { command: '${workspaceFolder}/s' } } },
      'server "gh": "command" uses ${workspaceFolder}, which is not known here: pass the baseDir option',
    ],
    [
      'credentials in the url',
      { mcpServers: { userinfo: { url: 'https://ann:${PASS}@mcp.example.com/mcp' } } },
      'server "userinfo": "url" must not contain credentials (user:password@); send them in a header such as Authorization',
    ],
    [
      'an envFile that does not exist',
      { servers: { gh: { command: 'x', envFile: '/nonexistent/agentwire/.env' } } },
      'server "gh": "envFile" cannot be read (ENOENT)',
    ],
  ];

  it.each(cases)('rejects %s with an exact message', (_, value, problem) => {
    const env = { PASS: 'hunter2' };
    const error = configError(() => strict(parseServerConfig(value, { source: 'test.json', env })));
    expect(error.message).toBe(`config test.json: ${problem}`);
    expect(error.file).toBe('test.json');
  });

  it('points at the entry and the field on the error object', () => {
    const error = configError(() => strict(parseServerConfig({ mcpServers: { github: { url: 42 } } })));
    expect([error.file, error.entry, error.field, error.variable]).toEqual([
      '<inline>',
      'github',
      'url',
      undefined,
    ]);
  });

  it('never shows a URL that fails to parse, since it may hold a token', () => {
    const error = configError(() =>
      strict(parseServerConfig({ mcpServers: { s: { url: 'bad url ${T}' } } }, { env: { T: 'tok-999' } })),
    );
    expect(error.message).not.toContain('tok-999');
  });
});

describe('parseServerConfig: entries that load', () => {
  it('leaves a $ without braces and an unclosed ${ as written', () => {
    const config = parseServerConfig({
      mcpServers: { s: { command: 'sh', args: ['-c', 'echo $HOME ${unclosed'] } },
    });
    expect(config.servers[0]).toEqual({
      name: 's',
      kind: 'stdio',
      server: { command: 'sh', args: ['-c', 'echo $HOME ${unclosed'] },
    });
  });

  it('uses the default of ${VAR:-default} for an empty variable and keeps ${VAR} empty', () => {
    const config = parseServerConfig(
      { mcpServers: { s: { command: 'x', args: ['${E:-fallback}', '${E}'] } } },
      { env: { E: '' } },
    );
    const entry = config.servers[0]!;
    expect(entry.kind === 'stdio' && entry.server.args).toEqual(['fallback', '']);
  });

  it('maps each VS Code type to a transport', () => {
    const config = parseServerConfig({
      servers: {
        a: { type: 'http', url: 'https://a.example/mcp' },
        b: { type: 'sse', url: 'https://b.example/sse' },
        c: { type: 'streamable-http', url: 'https://c.example/mcp' },
        d: { url: 'https://d.example/mcp' },
      },
    });
    const transports = config.servers.map((entry) => entry.kind === 'http' && entry.options.transport);
    expect(transports).toEqual(['auto', 'sse', 'streamable-http', 'auto']);
  });

  it('skips a disabled entry without reading its fields', () => {
    const config = parseServerConfig(
      { mcpServers: { off: { disabled: true, url: 42, env: { K: '${UNSET}' } } } },
      { env: {} },
    );
    expect(config).toEqual({
      source: '<inline>',
      format: 'mcpServers',
      servers: [],
      disabled: ['off'],
      invalid: [],
      warnings: [],
    });
  });

  it('loads an in-memory object through loadServerConfig too', async () => {
    const config = await loadServerConfig({ mcpServers: { a: { command: 'a-server', cwd: 'rel' } } });
    expect(config.servers).toEqual([
      { name: 'a', kind: 'stdio', server: { command: 'a-server', cwd: 'rel' } },
    ]);
  });
});

describe('one invalid entry among good ones', () => {
  const config = parseServerConfig(
    {
      mcpServers: {
        good: { command: 'good-server' },
        unset: { command: 'x', env: { TOKEN: '${AGENTWIRE_TEST_UNSET}' } },
        userinfo: { url: 'https://ann:secret@mcp.example.com/mcp' },
        off: { disabled: true },
      },
    },
    { source: 'mix.json', env: {} },
  );

  it('loads the good entries and records each invalid one with its own error', () => {
    expect(config.servers).toEqual([{ name: 'good', kind: 'stdio', server: { command: 'good-server' } }]);
    expect(config.disabled).toEqual(['off']);
    expect(config.invalid.map(({ name, error }) => [name, error.message, error.field])).toEqual([
      [
        'unset',
        'config mix.json: server "unset": "env.TOKEN" uses ${AGENTWIRE_TEST_UNSET}, which is not set in the environment',
        'env.TOKEN',
      ],
      [
        'userinfo',
        'config mix.json: server "userinfo": "url" must not contain credentials (user:password@); send them in a header such as Authorization',
        'url',
      ],
    ]);
    expect(config.invalid.every(({ error }) => error instanceof MCPConfigError)).toBe(true);
    expect(JSON.stringify(config.invalid.map(({ error }) => error.message))).not.toContain('secret');
  });

  it("gives a good entry by name, and throws an invalid entry's own error when it is named", () => {
    expect(getServerEntry(config, 'good')).toBe(config.servers[0]);
    const error = configError(() => getServerEntry(config, 'userinfo'));
    expect(error).toBe(config.invalid[1]?.error);
  });

  it('still throws for a file that is unusable as a whole', () => {
    const error = configError(() => parseServerConfig({ mcpServers: [] }, { source: 'mix.json' }));
    expect(error.message).toBe('config mix.json: "mcpServers" must be an object');
  });
});

describe('keys agentwire does not read', () => {
  it('warns of each, naming the file, the server, the key and the nearest known key; the entry loads', () => {
    const config = parseServerConfig(
      {
        mcpServers: {
          everything: { command: 'npx', blocktools: ['get-env'], autoApprove: ['echo'], color: 'red' },
          off: { command: 'npx', disabled: true, blocktool: ['x'] },
        },
      },
      { source: 'gw.json' },
    );
    expect(config.servers.map((entry) => entry.name)).toEqual(['everything']);
    expect(config.warnings.map((warning) => warning.message)).toEqual([
      'config gw.json: server "everything": unknown key "blocktools" ignored (did you mean "blockTools"?)',
      'config gw.json: server "everything": unknown key "color" ignored',
    ]);
    expect(config.warnings[0]).toMatchObject({
      file: 'gw.json',
      entry: 'everything',
      key: 'blocktools',
      suggestion: 'blockTools',
    });
  });
});

describe('getServerEntry', () => {
  const config = parseServerConfig(
    { mcpServers: { a: { command: 'a' }, b: { url: 'https://b.example/mcp' }, off: { disabled: true } } },
    { source: 'mcp.json' },
  );

  it('finds an entry by name', () => {
    expect(getServerEntry(config, 'b')).toBe(config.servers[1]);
  });

  it('names the servers there are when the name is unknown', () => {
    const error = configError(() => getServerEntry(config, 'c'));
    expect(error.message).toBe('config mcp.json: has no server named "c" (servers: "a", "b")');
    expect([error.file, error.entry]).toEqual(['mcp.json', 'c']);
  });

  it('says so when the entry is disabled', () => {
    const error = configError(() => getServerEntry(config, 'off'));
    expect(error.message).toBe('config mcp.json: server "off" is disabled ("disabled": true)');
  });
});

describe('createClient', () => {
  it('names a stdio client after its entry and leaves it unconnected', () => {
    const client = createClient({ name: 'fs', kind: 'stdio', server: { command: 'npx' } });
    expect([client.name, client.getState(), client.getTools()]).toEqual(['fs', 'disconnected', []]);
  });

  it('names an HTTP client after its entry', () => {
    const client = createClient({
      name: 'remote',
      kind: 'http',
      url: 'https://mcp.example.com/mcp',
      options: { headers: { Authorization: 'Bearer x' }, transport: 'auto' },
    });
    expect([client.name, client.getState()]).toEqual(['remote', 'disconnected']);
  });
});
