/**
 * `agentwire call <tool> key=value …`: values typed by the tool's input schema, `-` for JSON on stdin, the
 * JSON object form, and the usage errors (exit 2) of each; an unterminated quote in `--stdio` is a usage
 * error, not a command with the quote dropped. The CLI runs in-process (the `runCli` the executable calls,
 * its exit code, stdout and stderr), but for `-`, which reads the built executable's own stdin.
 */
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readLog, SCRIPTED, tempDir } from '../helpers.js';
import { ensureBuilt, runBuilt } from './built-cli.js';
import { cli, EVERYTHING } from './run-cli.js';

beforeAll(ensureBuilt, 120_000);

const TOOLS = [
  {
    name: 'echo',
    description: 'Echoes',
    inputSchema: {
      type: 'object',
      properties: {
        text: { type: 'string' },
        count: { type: 'integer' },
        ratio: { type: 'number' },
        loud: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        options: { type: 'object' },
        mode: { enum: ['fast', 'slow'] },
        limit: { type: ['integer', 'null'] },
        anything: {},
      },
      additionalProperties: false,
    },
  },
];

describe('agentwire call with key=value arguments', () => {
  let dir: ReturnType<typeof tempDir>;
  let log: string;
  beforeEach(() => {
    dir = tempDir();
    log = path.join(dir.dir, 'log.jsonl');
  });
  afterEach(() => dir.remove());

  const stdio = () => [
    '--stdio',
    `${process.execPath} ${SCRIPTED}`,
    '--env',
    `FIXTURE_TOOLS=${JSON.stringify(TOOLS)}`,
    '--env',
    `FIXTURE_LOG=${log}`,
  ];
  const sent = () => readLog(log).find((message) => message.method === 'tools/call')?.params?.arguments;

  it.each([
    ['{"count":"x"}', 'error: argument "count" of tool "echo" expects a whole number, got "x"\n'],
    ['{"count":1.5}', 'error: argument "count" of tool "echo" expects a whole number, got "1.5"\n'],
    [
      '{"count":3,"bogus":1}',
      'error: tool "echo" has no parameter "bogus" (parameters: text, count, ratio, loud, tags, options, mode, limit, anything)\n',
    ],
  ])('checks a JSON object %s against the schema as key=value words, exit 2', async (json, stderr) => {
    const run = await cli(['call', ...stdio(), 'echo', json]);
    expect(run).toEqual({ code: 2, stdout: '', stderr });
    expect(sent()).toBeUndefined();
  });

  it('refuses count=x with the same words as the JSON object form', async () => {
    const run = await cli(['call', ...stdio(), 'echo', 'count=x']);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: argument "count" of tool "echo" expects a whole number, got "x"\n',
    });
  });

  it("types each value by the tool's schema", async () => {
    const run = await cli([
      'call',
      ...stdio(),
      'echo',
      'text=42',
      'count=3',
      'ratio=0.5',
      'loud=true',
      'tags=["a","b"]',
      'options={"deep":{"x":1}}',
      'mode=slow',
      'limit=null',
      'anything=[1]',
    ]);
    expect(run).toEqual({ code: 0, stdout: 'echo: 42\n', stderr: '' });
    expect(sent()).toEqual({
      text: '42',
      count: 3,
      ratio: 0.5,
      loud: true,
      tags: ['a', 'b'],
      options: { deep: { x: 1 } },
      mode: 'slow',
      limit: null,
      anything: [1],
    });
  });

  it('keeps "=" after the first in the value, and text that is not JSON for an untyped property', async () => {
    const run = await cli(['call', ...stdio(), 'echo', 'text=a=b', 'anything=plain words']);
    expect(run).toEqual({ code: 0, stdout: 'echo: a=b\n', stderr: '' });
    expect(sent()).toEqual({ text: 'a=b', anything: 'plain words' });
  });

  it('reads a JSON object from stdin for "-"', async () => {
    const run = await runBuilt(['call', ...stdio(), 'echo', '-'], {
      input: '{"text":"from stdin","count":1}\n',
    });
    expect(run).toEqual({ code: 0, stdout: 'echo: from stdin\n', stderr: '' });
    expect(sent()).toEqual({ text: 'from stdin', count: 1 });
  });

  it('still takes one JSON object', async () => {
    const run = await cli(['call', ...stdio(), 'echo', '{"text":"x=y"}']);
    expect(run).toEqual({ code: 0, stdout: 'echo: x=y\n', stderr: '' });
  });

  it('calls a real server with typed numbers', async () => {
    const run = await cli(['call', '--stdio', EVERYTHING, 'get-sum', 'a=2', 'b=40']);
    expect(run).toEqual({ code: 0, stdout: 'The sum of 2 and 40 is 42.\n', stderr: '' });
  });

  it.each([
    [['count=three'], 'error: argument "count" of tool "echo" expects a whole number, got "three"\n'],
    [['count=1.5'], 'error: argument "count" of tool "echo" expects a whole number, got "1.5"\n'],
    [['loud=yes'], 'error: argument "loud" of tool "echo" expects true or false, got "yes"\n'],
    [['tags={"a":1}'], 'error: argument "tags" of tool "echo" expects a JSON array, got "{"a":1}"\n'],
    [['options=[1]'], 'error: argument "options" of tool "echo" expects a JSON object, got "[1]"\n'],
    [['limit=none'], 'error: argument "limit" of tool "echo" expects a whole number or null, got "none"\n'],
    [
      ['colour=red'],
      'error: tool "echo" has no parameter "colour" (parameters: text, count, ratio, loud, tags, options, mode, limit, anything)\n',
    ],
  ])('refuses %j with exit 2', async (words, stderr) => {
    expect(await cli(['call', ...stdio(), 'echo', ...words])).toEqual({ code: 2, stdout: '', stderr });
    expect(sent()).toBeUndefined();
  });
});

describe('argument usage errors, before any server starts (exit 2)', () => {
  it.each([
    [['echo', 'text=a', 'text=b'], 'error: the tool arguments: "text" is given twice\n'],
    [['echo', '=a'], 'error: the tool arguments: "=a" has no key before "="\n'],
    [
      ['echo', 'text=a', 'hello'],
      'error: the tool arguments: expected key=value words, a JSON object or "-" for JSON on stdin, got "hello"\n',
    ],
    [
      ['echo', 'hello'],
      'error: the tool arguments: expected key=value words, a JSON object or "-" for JSON on stdin, got "hello"\n',
    ],
  ])('%j', async (words, stderr) => {
    // The command would fail to start: reaching it would be a different error.
    const run = await cli(['call', '--stdio', 'agentwire-no-such-command', ...words]);
    expect(run).toEqual({ code: 2, stdout: '', stderr });
  });

  it('refuses "-" with nothing on stdin', async () => {
    const run = await runBuilt(['call', '--stdio', 'agentwire-no-such-command', 'echo', '-'], { input: '' });
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: the tool arguments on stdin ("-") are empty\n',
    });
  });

  it.each([
    ['node "server.js', 'error: --stdio: the command line has an unterminated " quote\n'],
    ["node 'my server.js", "error: --stdio: the command line has an unterminated ' quote\n"],
    ['node "it\'s.js', 'error: --stdio: the command line has an unterminated " quote\n'],
  ])('refuses the --stdio command line %s', async (line, stderr) => {
    expect(await cli(['call', '--stdio', line, 'echo'])).toEqual({ code: 2, stdout: '', stderr });
  });

  it('accepts quotes that close, and escaped ones', async () => {
    const run = await cli(['call', '--stdio', `"${process.execPath}" "${SCRIPTED}" \\"x`, 'echo', 'text=ok']);
    expect(run).toEqual({ code: 0, stdout: 'echo: ok\n', stderr: '' });
  });
});
