/**
 * Form elicitations answered on a terminal, field by field (cli/form-elicitation.ts), in a real terminal
 * (tmux) typed into as a person would: against server-everything's `trigger-elicitation-request` (a 2025-era
 * `elicitation/create`) and the 2026-07-28 fixture's `profile` tool (an `input_required` round). Without a
 * terminal the capability is not declared (test/cli/form-elicitation-io.test.ts has the rest).
 */
import path from 'node:path';
import { quote } from 'shell-quote';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { needsProgram } from '../fixtures/system-programs.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { EVERYTHING, ROOT } from '../helpers.js';
import { ensureBuilt } from './built-cli.js';
import { runInTerminal, type TerminalKeys } from './terminal.js';

const FIXTURE_2026 = path.join(ROOT, 'test', 'fixtures', 'era2026', 'stdio-server.mjs');
const EVERYTHING_STDIO = quote([process.execPath, EVERYTHING]);
const FORM_2026 = `${quote([process.execPath, FIXTURE_2026])} --form`;

beforeAll(ensureBuilt, 120_000);

/** `agentwire call <tool> --stdio <server>` on a terminal, typing `keys` as the screen asks. */
function callOnTerminal(tool: string, server: string, keys: readonly TerminalKeys[]) {
  return runInTerminal(['call', tool, '--stdio', server], {}, 60_000, true, keys);
}

/** The lines a form opens with: the server's question, then how to answer. */
const opening = (server: string, message: string) => [
  `MCP server "${server}" asks: ${message}`,
  '(Enter keeps the default; Ctrl-C declines)',
];

/** The 2026-07-28 fixture's first field, as the screen asks it. */
const EMAIL = 'Email: Where we write to you (required, an email address)';

describe.skipIf(!needsProgram('tmux', import.meta.url))('a form elicitation on a terminal', () => {
  const fake = useFakeModelServer(startFakeAnthropic);

  it('run: asks the form of a tool the model calls, below its call line', async () => {
    fake.script(
      { toolCalls: [{ id: 'toolu_1', name: 'confirm', input: { action: 'deploy' } }] },
      { text: 'Done.' },
    );
    const env = {
      ANTHROPIC_API_KEY: 'sk-ant-test',
      ANTHROPIC_BASE_URL: fake.baseURL,
      AGENTWIRE_MODEL: 'anthropic:claude-test',
      NO_COLOR: '1',
    };
    const run = await runInTerminal(['run', 'Deploy.', '--yes', '--stdio', FORM_2026], env, 60_000, true, [
      { after: 'Confirm (required, y/n)', keys: ['y', 'Enter'] },
    ]);
    expect(run.code).toBe(0);
    const screen = (run.screen ?? '').replace(/\(\d+ ms\)/g, '(N ms)');
    expect(screen).toBe(
      [
        '▸ confirm [stdio-server] {"action":"deploy"}',
        "  … confirm 1 Fulfilling input required by 'tools/call' (round 1)",
        ...opening('stdio-server', 'Confirm deploy?'),
        'Confirm (required, y/n)',
        '> y',
        '  ✓ confirm (N ms) confirmed deploy',
        'Done.',
        '',
      ].join('\n'),
    );
  }, 90_000);

  it("asks the 2026-07-28 fixture's form field by field, re-asks a refused answer, and sends it", async () => {
    const run = await callOnTerminal('profile', FORM_2026, [
      { after: 'Email: Where we write to you', keys: ['not-an-email', 'Enter'] },
      { after: 'is not an email address', keys: ['ada@example.com', 'Enter'] },
      { after: 'Age (a whole number from 0 to 150)', keys: ['36', 'Enter'] },
      { after: 'Newsletter (y/n)', keys: ['Enter'] },
      { after: 'Plan (one of 1-2)', keys: ['2', 'Enter'] },
      { after: 'Topics (required', keys: ['1,3', 'Enter'] },
    ]);
    expect(run.code).toBe(0);
    expect(run.screen).toBe(
      [
        ...opening('stdio-server', 'Tell us about you.'),
        EMAIL,
        '> not-an-email',
        '  "not-an-email" is not an email address',
        EMAIL,
        '> ada@example.com',
        'Age (a whole number from 0 to 150)',
        '> 36',
        'Newsletter (y/n) [default: n]',
        // (the screen drops trailing blanks: an empty answer leaves '>')
        '>',
        'Plan (one of 1-2) [default: Free]',
        '  1) Free',
        '  2) Pro',
        '> 2',
        'Topics (required, numbers separated by commas, at least 1)',
        '  1) mcp',
        '  2) agents',
        '  3) http',
        '> 1,3',
        'accepted {"email":"ada@example.com","age":36,"newsletter":false,"plan":"pro","topics":["mcp","http"]}',
        '',
      ].join('\n'),
    );
  }, 90_000);

  it("asks server-everything's form (2025) and declines it on Ctrl-C", async () => {
    const run = await callOnTerminal('trigger-elicitation-request', EVERYTHING_STDIO, [
      { after: 'String: Your full, legal name (required)', keys: ['Ada', 'Enter'] },
      { after: 'Boolean: Agree to the terms and conditions (y/n)', keys: ['C-c'] },
    ]);
    expect(run.code).toBe(0);
    expect(run.screen).toContain(
      [
        ...opening('server-everything', 'Please provide inputs for the following fields:'),
        'String: Your full, legal name (required)',
        '> Ada',
        'Boolean: Agree to the terms and conditions (y/n)',
        '> ^C',
        '(declined: nothing was sent)',
        '❌ User declined to provide the requested information.',
      ].join('\n'),
    );
  }, 90_000);

  it('declines on an empty answer to a required field', async () => {
    const run = await callOnTerminal('profile', FORM_2026, [
      { after: 'Email: Where we write to you', keys: ['Enter'] },
    ]);
    expect(run.code).toBe(0);
    expect(run.screen).toBe(
      [
        ...opening('stdio-server', 'Tell us about you.'),
        EMAIL,
        '>',
        '(declined: nothing was sent)',
        'decline',
        '',
      ].join('\n'),
    );
  }, 90_000);
});
