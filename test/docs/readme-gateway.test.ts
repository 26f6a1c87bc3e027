/**
 * The README's gateway quick start, as written: its `gateway.json` served by the built CLI's `serve` (on
 * any free port of 127.0.0.1 rather than 8787, which may be taken), then its `tools --url … --header …`
 * command line against it. The tools are server-everything's, prefixed `everything__`, without `get-env`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseShell } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { ensureBuilt, plainEnv, startCli } from '../cli/built-cli.js';
import { cli } from '../cli/run-cli.js';
import { tempDir } from '../helpers.js';
import { docBlock } from './markdown.js';

const HEADING = '## Gateway quick start';
const TOKEN = 'readme-gateway-token-0123456789';

describe('the README gateway quick start', () => {
  it('serves server-everything on 127.0.0.1 behind the token, get-env blocked', async () => {
    ensureBuilt();
    const dir = tempDir('agentwire-readme-gateway-');
    const lines = docBlock('README.md', HEADING, 'sh').split('\n');
    const words = (prefix: string) => {
      const line = lines.find((candidate) => candidate.startsWith(prefix)) ?? '';
      return parseShell(line, { GATEWAY_TOKEN: TOKEN }).filter((word) => typeof word === 'string');
    };
    const serveWords = words('npx agentwire serve ');
    expect(serveWords.slice(0, 7)).toEqual([
      'npx',
      'agentwire',
      'serve',
      '--config',
      'gateway.json',
      '--host',
      '127.0.0.1',
    ]);
    const config = path.join(dir.dir, 'gateway.json');
    writeFileSync(config, docBlock('README.md', HEADING, 'json'));
    const serve = startCli(['serve', '--config', config, '--host', '127.0.0.1', '--port', '0'], {
      env: plainEnv({ GATEWAY_TOKEN: TOKEN }),
    });
    try {
      const url = await serve.onStderr(
        'serving on ',
        () => /serving on (\S+)/.exec(serve.stderr())?.[1] as string,
      );
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      const toolsWords = words('npx agentwire tools ');
      expect(toolsWords[4]).toBe('http://127.0.0.1:8787/mcp');
      const run = await cli(['tools', '--url', url, ...toolsWords.slice(5)]);
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      const names = run.stdout.split('\n').map((line) => /^([\w-]+):/.exec(line)?.[1]);
      expect(names).toContain('everything__echo');
      expect(names).toContain('everything__get-sum');
      expect(names.filter((name) => name?.includes('get-env'))).toEqual([]);
    } finally {
      serve.child.kill('SIGTERM');
      await serve.exited;
      dir.remove();
    }
  }, 60_000);
});
