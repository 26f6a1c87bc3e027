/**
 * Everything a server has besides tools, through the built executable against the real server-everything:
 * `resources list|templates|read`, `prompts list|get`, `complete`, each for people and with `--json`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, SCRIPTED } from '../helpers.js';
import { ensureBuilt, runBuilt } from './built-cli.js';
import { EVERYTHING } from './run-cli.js';

beforeAll(ensureBuilt, 120_000);

const CAPABILITIES = path.join(ROOT, 'test/fixtures/capabilities/stdio.mjs');

const DOCS = [
  'architecture',
  'extension',
  'features',
  'how-it-works',
  'instructions',
  'startup',
  'structure',
];
const DOCS_DIR = path.join(
  ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'docs',
);
const server = ['--stdio', EVERYTHING];

describe('agentwire resources', () => {
  it('lists the resources, URIs aligned', async () => {
    const width = 'demo://resource/static/document/architecture.md'.length;
    const lines = DOCS.map(
      (doc) =>
        `${`demo://resource/static/document/${doc}.md`.padEnd(width)}  ${doc}.md (text/markdown): ` +
        `Static document file exposed from /docs: ${doc}.md\n`,
    );
    expect(await runBuilt(['resources', 'list', ...server])).toEqual({
      code: 0,
      stdout: lines.join(''),
      stderr: '',
    });
  });

  it('lists them as JSON', async () => {
    const run = await runBuilt(['resources', 'list', '--json', ...server]);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(
      DOCS.map((doc) => ({
        uri: `demo://resource/static/document/${doc}.md`,
        name: `${doc}.md`,
        mimeType: 'text/markdown',
        description: `Static document file exposed from /docs: ${doc}.md`,
      })),
    );
  });

  it('lists the templates', async () => {
    const run = await runBuilt(['resources', 'templates', ...server]);
    expect(run).toEqual({
      code: 0,
      stdout:
        'demo://resource/dynamic/text/{resourceId}  Dynamic Text Resource (text/plain): Plaintext dynamic ' +
        'resource fabricated from the {resourceId} variable, which must be an integer.\n' +
        'demo://resource/dynamic/blob/{resourceId}  Dynamic Blob Resource (application/octet-stream): Binary ' +
        '(base64) dynamic resource fabricated from the {resourceId} variable, which must be an intege…\n',
      stderr: '',
    });
    const json = await runBuilt(['resources', 'templates', '--json', ...server]);
    expect(JSON.parse(json.stdout).map((t: { uriTemplate: string }) => t.uriTemplate)).toEqual([
      'demo://resource/dynamic/text/{resourceId}',
      'demo://resource/dynamic/blob/{resourceId}',
    ]);
  });

  it("prints a text resource's contents as they are", async () => {
    const text = readFileSync(path.join(DOCS_DIR, 'features.md'), 'utf8');
    const run = await runBuilt([
      'resources',
      'read',
      'demo://resource/static/document/features.md',
      ...server,
    ]);
    expect(run).toEqual({ code: 0, stdout: text.endsWith('\n') ? text : `${text}\n`, stderr: '' });
  });

  it('prints a blob as a placeholder, and as sent with --json', async () => {
    const uri = 'demo://resource/dynamic/blob/1';
    const run = await runBuilt(['resources', 'read', uri, ...server]);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    // server-everything stamps the blob with toLocaleTimeString() ("9:05:03 PM", "10:05:03 PM"): 45 bytes of
    // text, then 10 or 11 of time, by the hour of the day.
    const size = /^\[blob demo:\/\/resource\/dynamic\/blob\/1: text\/plain, (\d+) B\]\n$/.exec(
      run.stdout,
    )?.[1];
    expect(['55', '56']).toContain(size);
    const json = await runBuilt(['resources', 'read', uri, '--json', ...server]);
    const result = JSON.parse(json.stdout);
    expect(result.contents).toHaveLength(1);
    expect(Buffer.from(result.contents[0].blob, 'base64').toString()).toMatch(
      /^Resource 1: This is a base64 blob created at .+$/,
    );
  });

  it('says a server without resources offers none, asking it nothing, and exits 0', async () => {
    const run = await runBuilt(['resources', 'list', '--stdio', `${process.execPath} ${SCRIPTED}`]);
    expect(run).toEqual({ code: 0, stdout: 'server "scripted-server" offers no resources\n', stderr: '' });
  });
});

describe('a server that does not offer what a command asks for (capability fixture, tools only)', () => {
  const toolsOnly = ['--stdio', `${process.execPath} ${CAPABILITIES} --declare=tools`];
  const resourcesOnly = ['--stdio', `${process.execPath} ${CAPABILITIES} --declare=resources`];

  it.each([
    [['resources', 'list'], 'resources'],
    [['resources', 'templates'], 'resources'],
    [['resources', 'read', 'fixture://doc'], 'resources'],
    [['prompts', 'list'], 'prompts'],
    [['prompts', 'get', 'hello'], 'prompts'],
    [['complete', '--prompt', 'hello', 'name'], 'completions'],
  ])('%j says the server offers no %s and exits 0', async (command, what) => {
    expect(await runBuilt([...command, ...toolsOnly])).toEqual({
      code: 0,
      stdout: `server "stdio" offers no ${what}\n`,
      stderr: '',
    });
  });

  it('prints the empty completion for complete --json, and the line on stderr', async () => {
    expect(await runBuilt(['complete', '--prompt', 'hello', 'name', '--json', ...toolsOnly])).toEqual({
      code: 0,
      stdout: '{\n  "values": []\n}\n',
      stderr: 'server "stdio" offers no completions\n',
    });
  });

  it('prints [] for a list with --json, and the line on stderr', async () => {
    expect(await runBuilt(['prompts', 'list', '--json', ...toolsOnly])).toEqual({
      code: 0,
      stdout: '[]\n',
      stderr: 'server "stdio" offers no prompts\n',
    });
  });

  it('says a server without tools offers none', async () => {
    expect(await runBuilt(['tools', ...resourcesOnly])).toEqual({
      code: 0,
      stdout: 'server "stdio" offers no tools\n',
      stderr: '',
    });
  });
});

describe('agentwire prompts', () => {
  it('lists the prompts and their arguments', async () => {
    expect(await runBuilt(['prompts', 'list', ...server])).toEqual({
      code: 0,
      stdout: [
        'simple-prompt: A prompt with no arguments',
        '  (no arguments)',
        'args-prompt: A prompt with two arguments, one required and one optional',
        '  city (required): Name of the city',
        '  state',
        'completable-prompt: First argument choice narrows values for second argument.',
        '  department (required): Choose the department.',
        '  name (required): Choose a team member to lead the selected department.',
        'resource-prompt: A prompt that includes an embedded resource reference',
        '  resourceType (required): Type of resource to fetch',
        '  resourceId (required): ID of the text resource to fetch',
        '',
      ].join('\n'),
      stderr: '',
    });
    const json = await runBuilt(['prompts', 'list', '--json', ...server]);
    expect(JSON.parse(json.stdout)[1]).toEqual({
      name: 'args-prompt',
      title: 'Arguments Prompt',
      description: 'A prompt with two arguments, one required and one optional',
      arguments: [
        { name: 'city', description: 'Name of the city', required: true },
        { name: 'state', required: false },
      ],
    });
  });

  it('fills a prompt with key=value arguments', async () => {
    expect(await runBuilt(['prompts', 'get', 'args-prompt', 'city=Paris', 'state=TX', ...server])).toEqual({
      code: 0,
      stdout: "user: What's weather in Paris, TX?\n",
      stderr: '',
    });
    const json = await runBuilt(['prompts', 'get', 'simple-prompt', '--json', ...server]);
    expect(JSON.parse(json.stdout)).toEqual({
      messages: [
        { role: 'user', content: { type: 'text', text: 'This is a simple prompt without arguments.' } },
      ],
    });
  });

  it('refuses a prompt the server does not list, as call refuses a tool (exit 2)', async () => {
    expect(await runBuilt(['prompts', 'get', 'nope', ...server])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: server "server-everything" has no prompt "nope" (available: simple-prompt, args-prompt, completable-prompt, resource-prompt)\n',
    });
  });

  it('refuses a prompt without its required argument before prompts/get (exit 2)', async () => {
    expect(await runBuilt(['prompts', 'get', 'args-prompt', 'state=TX', ...server])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: prompt "args-prompt" needs the argument(s) city\n',
    });
  });

  it('refuses an argument that is not key=value before starting the server (exit 2)', async () => {
    const run = await runBuilt([
      'prompts',
      'get',
      'args-prompt',
      'Paris',
      '--stdio',
      'agentwire-no-such-command',
    ]);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: the prompt arguments: expected key=value words, a JSON object or "-" for JSON on stdin, got "Paris"\n',
    });
  });
});

describe('agentwire complete', () => {
  it("suggests a prompt argument's values, narrowed by --context", async () => {
    const departments = await runBuilt([
      'complete',
      '--prompt',
      'completable-prompt',
      'department',
      ...server,
    ]);
    expect(departments).toEqual({ code: 0, stdout: 'Engineering\nSales\nMarketing\nSupport\n', stderr: '' });
    const names = await runBuilt([
      'complete',
      '--prompt',
      'completable-prompt',
      'name',
      '--context',
      'department=Engineering',
      ...server,
    ]);
    expect(names).toEqual({ code: 0, stdout: 'Alice\nBob\nCharlie\n', stderr: '' });
  });

  it("completes a resource template's variable, as JSON", async () => {
    const template = 'demo://resource/dynamic/text/{resourceId}';
    const run = await runBuilt(['complete', '--resource', template, 'resourceId', '1', '--json', ...server]);
    expect(run).toEqual({
      code: 0,
      stdout: `${JSON.stringify({ values: ['1'], total: 1, hasMore: false }, null, 2)}\n`,
      stderr: '',
    });
  });

  it('says so when there is nothing to suggest', async () => {
    const run = await runBuilt(['complete', '--prompt', 'args-prompt', 'city', 'P', ...server]);
    expect(run).toEqual({ code: 0, stdout: '(no suggestions)\n', stderr: '' });
  });

  it('needs exactly one of --prompt and --resource (exit 2)', async () => {
    const run = await runBuilt(['complete', 'city', '--stdio', 'agentwire-no-such-command']);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: give either --prompt <name> or --resource <uri-template>\n',
    });
  });
});
