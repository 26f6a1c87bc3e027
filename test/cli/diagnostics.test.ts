import path from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';
import { cli } from './run-cli.js';

const NOISY = quote([
  process.execPath,
  path.join(ROOT, 'test', 'fixtures', 'stdio-server.mjs'),
  '--banner',
  'Server v1 starting',
]);

describe('background diagnostics in the CLI', () => {
  it('reports a non-JSON stdout line as a warning on stderr and still succeeds', async () => {
    const run = await cli(['call', '--stdio', NOISY, 'echo', '{"text":"hi"}']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('echo: hi\n');
    expect(run.stderr).toBe(
      'warning: server "stdio-server" wrote a stdout line that is not JSON, skipped: Server v1 starting\n',
    );
  });
});
