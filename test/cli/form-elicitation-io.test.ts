/**
 * Form elicitation in the CLI, in-process: the fields of the requested schema (cli/form-fields.ts), the
 * handler asking them through `io.askField` (cli/form-elicitation.ts), and what is declared and said with
 * and without a terminal. The screens themselves are in form-elicitation.test.ts (tmux).
 */
import path from 'node:path';
import { quote } from 'shell-quote';
import { describe, expect, it } from 'vitest';
import { formElicitationHandler, noTerminalFormLine } from '../../src/cli/form-elicitation.js';
import { fieldQuestion, formFields, parseAnswer } from '../../src/cli/form-fields.js';
import type { CliIo } from '../../src/cli/io.js';
import { runCli } from '../../src/cli/program.js';
import { ROOT, readLog, tempDir } from '../helpers.js';
import { cli } from './run-cli.js';

const FIXTURE_2026 = path.join(ROOT, 'test', 'fixtures', 'era2026', 'stdio-server.mjs');
const URL_FIXTURE = path.join(ROOT, 'test', 'fixtures', 'url-elicitation-server.mjs');
const NEVER = new AbortController().signal;

/** An io whose terminal answers `answers` in turn (`null`: Ctrl-C), recording what was written. */
function terminalIo(answers: (string | null)[]) {
  const written = { stdout: '', stderr: '', questions: [] as string[] };
  const io: CliIo = {
    stdout: (text) => {
      written.stdout += text;
    },
    stderr: (text) => {
      written.stderr += text;
    },
    askField: async (question) => {
      written.questions.push(question);
      return answers.length > 0 ? (answers.shift() as string | null) : null;
    },
  };
  return { io, written };
}

describe('the fields of a requested schema', () => {
  const [name, homepage, birthdate, legacy, fish] = formFields(
    {
      name: { type: 'string', title: 'Name', minLength: 2, maxLength: 5 },
      homepage: { type: 'string', format: 'uri' },
      birthdate: { type: 'string', format: 'date', description: 'Your date of birth' },
      legacy: { type: 'string', enum: ['pet-1', 'pet-2'], enumNames: ['Cats', 'Dogs'], default: 'pet-2' },
      fish: {
        type: 'array',
        title: 'Fish',
        maxItems: 2,
        items: {
          anyOf: [
            { const: 'fish-1', title: 'Tuna' },
            { const: 'fish-2', title: 'Salmon' },
          ],
        },
        default: ['fish-1'],
      },
    },
    ['name'],
  );

  it('asks each with its label, description, hints, choices and default', () => {
    expect([name, homepage, birthdate, legacy, fish].map((field) => fieldQuestion(field!))).toEqual([
      'Name (required, from 2 to 5 characters)\n> ',
      'homepage (a URI)\n> ',
      'birthdate: Your date of birth (a date, YYYY-MM-DD)\n> ',
      'legacy (one of 1-2) [default: Dogs]\n  1) Cats\n  2) Dogs\n> ',
      'Fish (numbers separated by commas, at most 2) [default: Tuna]\n  1) Tuna\n  2) Salmon\n> ',
    ]);
  });

  it('reads an answer, or says why it does not fit', () => {
    expect(parseAnswer(name!, 'A')).toEqual({ error: 'the length must be at least 2' });
    expect(parseAnswer(name!, 'Ada')).toEqual({ value: 'Ada' });
    expect(parseAnswer(homepage!, 'example')).toEqual({ error: '"example" is not a URI' });
    expect(parseAnswer(homepage!, 'https://example.com/')).toEqual({ value: 'https://example.com/' });
    expect(parseAnswer(birthdate!, '1990-02-31x')).toEqual({
      error: '"1990-02-31x" is not a date, YYYY-MM-DD',
    });
    expect(parseAnswer(birthdate!, '1990-02-03')).toEqual({ value: '1990-02-03' });
    expect(parseAnswer(legacy!, 'cats')).toEqual({ value: 'pet-1' });
    expect(parseAnswer(legacy!, '3')).toEqual({ error: 'choose a number from 1 to 2' });
    expect(parseAnswer(fish!, '2, Tuna')).toEqual({ value: ['fish-2', 'fish-1'] });
    expect(parseAnswer(fish!, '1,2,1')).toEqual({ value: ['fish-1', 'fish-2'] });
    expect(parseAnswer(fish!, 'trout')).toEqual({ error: '"trout" is not one of 1-2' });
  });

  it('reads numbers, integers and booleans with their bounds', () => {
    const [count, ratio, agree] = formFields({
      count: { type: 'integer', minimum: 1, maximum: 3 },
      ratio: { type: 'number' },
      agree: { type: 'boolean' },
    });
    expect(parseAnswer(count!, '2.5')).toEqual({ error: '"2.5" is not a whole number' });
    expect(parseAnswer(count!, '4')).toEqual({ error: 'the number must be at most 3' });
    expect(parseAnswer(count!, '3')).toEqual({ value: 3 });
    expect(parseAnswer(ratio!, 'x')).toEqual({ error: '"x" is not a number' });
    expect(parseAnswer(ratio!, '0.5')).toEqual({ value: 0.5 });
    expect(parseAnswer(agree!, 'Yes')).toEqual({ value: true });
    expect(parseAnswer(agree!, 'maybe')).toEqual({ error: 'answer y or n' });
  });
});

describe('the form handler', () => {
  const params = {
    message: 'About you',
    requestedSchema: {
      type: 'object' as const,
      properties: {
        name: { type: 'string', title: 'Name' },
        age: { type: 'integer', title: 'Age' },
        city: { type: 'string', title: 'City', default: 'Paris' },
        note: { type: 'string', title: 'Note' },
      },
      required: ['name'],
    },
  };
  /** The handler with `io`, asked `params` by the server `srv`. */
  const askForm = (io: CliIo) => formElicitationHandler(io)(params, { server: 'srv', signal: NEVER });

  it('asks each field in turn, asks again after a refused answer, keeps defaults, leaves empty ones out', async () => {
    const { io, written } = terminalIo(['Ada', 'old', '36', '', '']);
    const result = await askForm(io);
    expect(result).toEqual({ action: 'accept', content: { name: 'Ada', age: 36, city: 'Paris' } });
    expect(written.stderr).toBe(
      'MCP server "srv" asks: About you\n(Enter keeps the default; Ctrl-C declines)\n  "old" is not a number\n',
    );
    expect(written.questions).toEqual([
      'Name (required)\n> ',
      'Age (a whole number)\n> ',
      'Age (a whole number)\n> ',
      'City [default: Paris]\n> ',
      'Note\n> ',
    ]);
  });

  it('declines on Ctrl-C, and on an empty required field', async () => {
    for (const answers of [[null], ['']]) {
      const { io, written } = terminalIo(answers);
      expect(await askForm(io)).toEqual({
        action: 'decline',
      });
      expect(written.stderr.endsWith('(declined: nothing was sent)\n')).toBe(true);
    }
  });

  it('declines without a terminal, with one line naming the server and the question', async () => {
    const { io, written } = terminalIo([]);
    delete io.askField;
    expect(await askForm(io)).toEqual({
      action: 'decline',
    });
    expect(written.stderr).toBe(noTerminalFormLine('srv', 'About you'));
    expect(written.stderr).toBe(
      'MCP server "srv" asks: About you (a form); there is no terminal to answer it, so it is declined\n',
    );
  });
});

/** The `clientCapabilities` a message sent: `initialize`'s (2025), else its `_meta` envelope's (2026-07-28). */
const capabilitiesOf = (message: { params?: Record<string, unknown> }) =>
  message.params?.capabilities ??
  (message.params?._meta as Record<string, unknown> | undefined)?.[
    'io.modelcontextprotocol/clientCapabilities'
  ];

/** Runs `test` with the path of a message log in a temporary folder, removed after. */
async function withLog(test: (log: string) => Promise<void>): Promise<void> {
  const temp = tempDir('agentwire-form-');
  try {
    await test(path.join(temp.dir, 'log.jsonl'));
  } finally {
    temp.remove();
  }
}

describe('what the CLI declares', () => {
  it('without a terminal: no form elicitation; a server that needs one is told of in one line', async () => {
    await withLog(async (log) => {
      const server = `${quote([process.execPath, FIXTURE_2026])} --form --log=${log}`;
      expect(await cli(['call', 'profile', '--stdio', server])).toEqual({
        code: 3,
        stdout: '',
        stderr:
          'error: MCP server "stdio-server": tools/call failed: the server asks for input through a form, and ' +
          'there is no terminal to answer it: run the command on a terminal\n',
      });
      const call = readLog(log).find((message) => message.method === 'tools/call');
      expect(capabilitiesOf(call!)).toEqual({ elicitation: { url: {} } });
    });
  });

  it('on a terminal: elicitation.form in a 2025 initialize, beside the URL mode', async () => {
    await withLog(async (log) => {
      const { io, written } = terminalIo([]);
      io.confirm = async () => false;
      const code = await runCli(
        [
          'call',
          '--env',
          `FIXTURE_LOG=${log}`,
          '--stdio',
          quote([process.execPath, URL_FIXTURE]),
          'echo',
          'text=hi',
        ],
        io,
      );
      expect({ code, stdout: written.stdout }).toEqual({ code: 0, stdout: 'echo: hi\n' });
      const initialize = readLog(log).find((message) => message.method === 'initialize');
      expect(capabilitiesOf(initialize!)).toEqual({ elicitation: { form: {}, url: {} } });
    });
  });
});
