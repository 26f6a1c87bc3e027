/**
 * The commands that list many servers (`servers`, `configs`) give the `hint:` lines `tools` gives for a
 * server's failure, each naming its server: a whole command line in `command`, a `${input:ID}` without a
 * value (which `servers --input` and `configs --input` then give).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../helpers.js';
import { cli } from './run-cli.js';

const WHOLE = 'agentwire-no-such-command -y some-server';
const CONFIG = {
  mcpServers: {
    whole: { command: WHOLE },
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the config's reference syntax, not a JS placeholder.
    needs: { command: 'agentwire-no-such-command', args: ['${input:root}'] },
  },
};
const WHOLE_HINT =
  'hint: whole: "command" holds a whole command line: put "agentwire-no-such-command" in "command" and ' +
  '["-y","some-server"] in "args"\n';
const INPUT_HINT = 'hint: needs: give it with --input root=<value> (on a terminal it is asked for)\n';

let dir: ReturnType<typeof tempDir>;
let file: string;
beforeEach(() => {
  dir = tempDir();
  file = path.join(dir.dir, 'mcp.json');
  writeFileSync(file, JSON.stringify(CONFIG));
});
afterEach(() => {
  dir.remove();
  vi.unstubAllEnvs();
});

describe('agentwire servers', () => {
  it("gives each failed server's hints, named", async () => {
    const run = await cli(['servers', '--config', file]);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      'error: 2 of 2 enabled servers failed (1 invalid entry, 1 could not connect)\n' +
        WHOLE_HINT +
        INPUT_HINT,
    );
  });

  it('takes the value the hint asks for with --input', async () => {
    const run = await cli(['servers', '--config', file, '--input', 'root=/nowhere']);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(`error: 2 of 2 enabled servers failed to connect\n${WHOLE_HINT}`);
  });
});

describe('agentwire configs', () => {
  it("gives an unusable entry's hint, named", async () => {
    // Cursor's user configuration, in a home of the test's own.
    const home = path.join(dir.dir, 'home');
    mkdirSync(path.join(home, '.cursor'), { recursive: true });
    writeFileSync(path.join(home, '.cursor', 'mcp.json'), JSON.stringify(CONFIG));
    vi.stubEnv('HOME', home);
    vi.stubEnv('XDG_CONFIG_HOME', path.join(home, '.config'));
    vi.stubEnv('APPDATA', undefined);
    vi.stubEnv('CODEX_HOME', path.join(home, '.codex'));
    const run = await cli(['configs']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(INPUT_HINT);
    const fixed = await cli(['configs', '--input', 'root=/nowhere']);
    expect(fixed.stderr).toBe('');
  });
});
