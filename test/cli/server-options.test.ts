import { describe, expect, it } from 'vitest';
import { type ServerOptionValues, serverTarget } from '../../src/cli/server-options.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { MCPServerUrlError } from '../../src/mcp/protocol/errors.js';

const none: ServerOptionValues = { env: [], header: [] };

describe('serverTarget for --stdio', () => {
  it('splits the command line like a shell, quotes and escapes included, without expanding variables', () => {
    const target = serverTarget({ ...none, stdio: `node "my server.js" --root '/tmp/a b' \\$HOME $TOKEN` });
    expect(target).toEqual({
      kind: 'stdio',
      server: { command: 'node', args: ['my server.js', '--root', '/tmp/a b', '$HOME', '$TOKEN'] },
    });
  });

  it('passes --env pairs (values may contain "=") and --cwd and --timeout', () => {
    const target = serverTarget({
      ...none,
      stdio: 'python server.py',
      env: ['API_KEY=a=b', 'EMPTY='],
      cwd: '/srv',
      timeout: 5000,
    });
    expect(target).toEqual({
      kind: 'stdio',
      server: { command: 'python', args: ['server.py'], env: { API_KEY: 'a=b', EMPTY: '' }, cwd: '/srv' },
      timeout: 5000,
    });
  });

  it.each([
    ['', '--stdio needs a command line, e.g. --stdio "node server.js"'],
    [
      'node s.js && rm -rf /',
      '--stdio: shell operator "&&" is not supported; the command runs without a shell',
    ],
    ['node s.js > out.log', '--stdio: shell operator ">" is not supported; the command runs without a shell'],
    ['node *.js', '--stdio: glob "*.js" is not expanded; quote it'],
    ['node s.js # comment', '--stdio: "#" comments are not supported; quote the "#"'],
  ])('refuses %j: %s', (stdio, message) => {
    expect(() => serverTarget({ ...none, stdio })).toThrow(new UsageError(message));
  });
});

describe('serverTarget for --url', () => {
  it('parses headers at the first colon and keeps the transport', () => {
    const target = serverTarget({
      ...none,
      url: 'https://example.com/mcp',
      header: ['Authorization: Bearer a:b', 'X-Trace:1'],
      transport: 'sse',
    });
    expect(target).toEqual({
      kind: 'url',
      url: new URL('https://example.com/mcp'),
      headers: { Authorization: 'Bearer a:b', 'X-Trace': '1' },
      transport: 'sse',
    });
  });

  it('defaults the transport to auto', () => {
    expect(serverTarget({ ...none, url: 'http://localhost:3001/mcp' })).toMatchObject({ transport: 'auto' });
  });

  it('refuses a URL it cannot parse without echoing it (it may carry a token)', () => {
    expect(() => serverTarget({ ...none, url: 'not a url?token=s3cret' })).toThrow(
      new UsageError('--url has no scheme: write http://… or https://… (e.g. http://localhost:3001/mcp)'),
    );
    expect(() => serverTarget({ ...none, url: 'http://[bad?token=s3cret' })).toThrow(
      new UsageError('--url is not a valid absolute URL (e.g. http://localhost:3001/mcp)'),
    );
  });

  it('refuses a URL with credentials as the client does, without echoing them', () => {
    const error = (() => {
      try {
        serverTarget({ ...none, url: 'https://ann:s3cret@mcp.example.com/mcp' });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(MCPServerUrlError);
    expect(error).toMatchObject({
      problem: 'credentials',
      message:
        'the server URL must not contain credentials (user:password@); send them in a header such as Authorization',
    });
  });

  it.each([['Authorization Bearer s3cret'], [': s3cret'], ['Bad Name: s3cret']])(
    'refuses the header %j without echoing it',
    (header) => {
      expect(() => serverTarget({ ...none, url: 'http://localhost/mcp', header: [header] })).toThrow(
        new UsageError('--header expects "Name: value"'),
      );
    },
  );
});
