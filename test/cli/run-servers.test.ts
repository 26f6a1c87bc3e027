import { describe, expect, it } from 'vitest';
import { type ServerListOptionValues, serverTargets } from '../../src/cli/server-options.js';
import { createClients } from '../../src/cli/with-servers.js';

const none: ServerListOptionValues = { stdio: [], url: [], env: [], header: [] };

describe('serverTargets for agentwire run (several servers)', () => {
  it('names no server when none is given', () => {
    expect(serverTargets(none)).toEqual([]);
  });

  it('gives --env, --cwd and --timeout to every --stdio server, and --header to the one --url server', () => {
    const targets = serverTargets({
      ...none,
      stdio: ['node a.js', 'python b.py --fast'],
      url: ['http://localhost:3001/mcp'],
      env: ['TOKEN=x'],
      cwd: '/srv',
      header: ['Authorization: Bearer t'],
      transport: 'streamable-http',
      timeout: 5000,
    });
    expect(targets).toEqual([
      {
        kind: 'stdio',
        server: { command: 'node', args: ['a.js'], env: { TOKEN: 'x' }, cwd: '/srv' },
        timeout: 5000,
      },
      {
        kind: 'stdio',
        server: { command: 'python', args: ['b.py', '--fast'], env: { TOKEN: 'x' }, cwd: '/srv' },
        timeout: 5000,
      },
      {
        kind: 'url',
        url: new URL('http://localhost:3001/mcp'),
        headers: { Authorization: 'Bearer t' },
        transport: 'streamable-http',
        timeout: 5000,
      },
    ]);
  });

  it.each([
    [{ env: ['A=1'] }, '--env applies to --stdio servers only'],
    [{ cwd: '/srv', url: ['http://a.test/mcp'] }, '--cwd applies to --stdio servers only'],
    [{ header: ['X-A: 1'], stdio: ['node a.js'] }, '--header applies to --url servers only'],
    [
      { header: ['X-A: 1'], url: ['http://a.test/mcp', 'http://b.test/mcp'] },
      '--header needs a single --url server (it would be sent to every one)',
    ],
    [
      { stdio: ['node a.js | cat'] },
      '--stdio: shell operator "|" is not supported; the command runs without a shell',
    ],
  ])('refuses %j: %s', (values, message) => {
    expect(() => serverTargets({ ...none, ...values })).toThrow(message);
  });
});

describe('createClients', () => {
  it('names each server after its command or host, telling repeats apart with -2, -3', () => {
    const clients = createClients(
      serverTargets({
        ...none,
        stdio: ['node node_modules/@x/server-everything/dist/index.js', 'node other/server-everything.js'],
        url: ['http://localhost:3001/mcp', 'http://localhost:3001/mcp'],
      }),
    );
    expect(clients.map((client) => client.name)).toEqual([
      'server-everything',
      'server-everything-2',
      'localhost:3001',
      'localhost:3001-2',
    ]);
    expect(clients.map((client) => client.getState())).toEqual([
      'disconnected',
      'disconnected',
      'disconnected',
      'disconnected',
    ]);
  });
});
