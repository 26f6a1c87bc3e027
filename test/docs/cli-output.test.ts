/**
 * The wire trace docs/cli.md shows under "## Output, errors and exit codes" is what `agentwire call -v`
 * prints on stderr for one call of the scripted test server (durations aside), run in-process.
 */
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { cli } from '../cli/run-cli.js';
import { SCRIPTED } from '../helpers.js';
import { docBlock } from './markdown.js';

/** Durations vary from run to run; everything else is exact. */
const timeless = (text: string) => text.replace(/\(\d+ ms\)/g, '(N ms)');

describe('the wire trace of docs/cli.md', () => {
  it('is what call -v prints for one call', async () => {
    const run = await cli(['call', '-v', '--stdio', quote([process.execPath, SCRIPTED]), 'echo', 'text=hi']);
    expect({ ...run, stderr: timeless(run.stderr) }).toEqual({
      code: 0,
      stdout: 'echo: hi\n',
      stderr: timeless(docBlock('docs/cli.md', '## Output, errors and exit codes', 'text')),
    });
  });
});
