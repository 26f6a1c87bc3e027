import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseShell, quote } from 'shell-quote';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { runCli } from '../../src/cli/program.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { startFakeOpenAI } from '../fixtures/fake-openai.js';
import { startEverything } from '../fixtures/http-everything.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { children, readLog, SCRIPTED, tempDir, waitUntil } from '../helpers.js';
import { cli, EVERYTHING } from './run-cli.js';

const PROVIDER_VARS = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_BASE_URL',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'AGENTWIRE_MODEL',
];

/** A `--stdio` command line for the scripted fixture server. */
const SCRIPTED_SERVER = quote([process.execPath, SCRIPTED]);

const EVERYTHING_MARKER = 'server-everything/dist/index.js';
const SCRIPTED_MARKER = 'test/fixtures/scripted-server.mjs';

/** Tool durations vary from run to run; everything else in a transcript is exact. */
const timeless = (text: string) => text.replace(/\(\d+ ms\)/g, '(N ms)');

/** Runs `agentwire <argv>` in-process; its output can be read while it runs. */
function startCli(
  argv: string[],
  signal: AbortSignal,
): { stdout: string; stderr: string; code: Promise<number> } {
  const run = { stdout: '', stderr: '', code: Promise.resolve(0) };
  const io = {
    stdout: (text: string) => {
      run.stdout += text;
    },
    stderr: (text: string) => {
      run.stderr += text;
    },
    signal,
  };
  run.code = runCli(argv, io);
  return run;
}

/** Whether `pid` is still a live process (a zombie has no command line left and counts as gone). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8') !== '';
  } catch {
    return false;
  }
}

let workspace: string;
beforeAll(async () => {
  workspace = await mkdtemp(path.join(tmpdir(), 'agentwire-run-'));
  await writeFile(path.join(workspace, 'notes.txt'), 'remember the milk');
});
afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
});
beforeEach(() => {
  for (const name of PROVIDER_VARS) vi.stubEnv(name, undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('agentwire run against a fake Anthropic API', () => {
  const fake = useFakeModelServer(startFakeAnthropic);
  beforeEach(() => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test-secret');
    vi.stubEnv('ANTHROPIC_BASE_URL', fake.baseURL);
    vi.stubEnv('AGENTWIRE_MODEL', 'claude-from-env');
  });

  it("streams a run in which the model calls server-everything's echo and the built-in read_file (--model wins over AGENTWIRE_MODEL)", async () => {
    fake.script(
      {
        text: "I'll echo it first.",
        toolCalls: [{ id: 'toolu_1', name: 'echo', input: { message: 'hello from the model' } }],
      },
      { toolCalls: [{ id: 'toolu_2', name: 'read_file', input: { path: 'notes.txt' } }] },
      { text: 'The server echoed me, and the note says: remember the milk.' },
    );
    const run = await cli([
      'run',
      'Echo something, then read my notes.',
      '--stdio',
      EVERYTHING,
      '--tools',
      'default',
      '--root',
      workspace,
      '--model',
      'anthropic:claude-test',
    ]);
    expect({ ...run, stdout: timeless(run.stdout) }).toEqual({
      code: 0,
      stdout: [
        "I'll echo it first.",
        '▸ echo [server-everything] {"message":"hello from the model"}',
        '  ✓ echo (N ms) Echo: hello from the model',
        '▸ read_file [builtin] {"path":"notes.txt"}',
        '  ✓ read_file (N ms) remember the milk',
        'The server echoed me, and the note says: remember the milk.',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(fake.requests.map((request) => request.model)).toEqual([
      'claude-test',
      'claude-test',
      'claude-test',
    ]);
    // The MCP result reached the model as the answer to its tool call.
    expect(fake.requests[1]?.messages).toContainEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'toolu_1',
          content: 'Echo: hello from the model',
          is_error: false,
        },
      ],
    });
    expect(children(EVERYTHING_MARKER)).toEqual([]);
  });

  it('reads --model as AGENTWIRE_MODEL is read: a bare id is a model of the configured provider', async () => {
    fake.script({ text: 'Hello.' }, { text: 'Hello again.' });
    const noTools =
      'warning: the model has no tools: add servers (--stdio, --url, --config) or --tools default\n';
    expect(await cli(['run', 'Hi.', '--model', 'claude-bare'])).toEqual({
      code: 0,
      stdout: 'Hello.\n',
      stderr: noTools,
    });
    vi.stubEnv('AGENTWIRE_MODEL', 'claude-bare');
    expect(await cli(['run', 'Hi.'])).toEqual({ code: 0, stdout: 'Hello again.\n', stderr: noTools });
    expect(fake.requests.map((request) => request.model)).toEqual(['claude-bare', 'claude-bare']);
  });

  it('connects a stdio and an HTTP server at once and prefixes the tool names they share with each server', async () => {
    const http = await startEverything('streamableHttp');
    try {
      const host = new URL(http.url).host;
      const httpPrefix = host.replace(/[^a-zA-Z0-9_-]/g, '_');
      fake.script(
        { toolCalls: [{ id: 'toolu_a', name: 'server-everything__echo', input: { message: 'via stdio' } }] },
        { toolCalls: [{ id: 'toolu_b', name: `${httpPrefix}__echo`, input: { message: 'via HTTP' } }] },
        { text: 'Both answered.' },
      );
      const run = await cli(['run', 'Echo twice.', '--stdio', EVERYTHING, '--url', http.url]);
      expect({ ...run, stdout: timeless(run.stdout) }).toEqual({
        code: 0,
        stdout: [
          '▸ server-everything__echo [server-everything] {"message":"via stdio"}',
          '  ✓ server-everything__echo (N ms) Echo: via stdio',
          `▸ ${httpPrefix}__echo [${host}] {"message":"via HTTP"}`,
          `  ✓ ${httpPrefix}__echo (N ms) Echo: via HTTP`,
          'Both answered.',
          '',
        ].join('\n'),
        stderr: '',
      });
      const tools = (fake.requests[0]?.tools ?? []) as { name: string }[];
      const offered = tools.map((tool) => tool.name);
      expect(offered).toContain('server-everything__echo');
      expect(offered).toContain(`${httpPrefix}__echo`);
      expect(offered).not.toContain('echo');
    } finally {
      await http.stop();
    }
  });

  it('prints what docs/cli.md shows under "## `agentwire run`", for its command line verbatim', async () => {
    const page = readFileSync('docs/cli.md', 'utf8');
    const agentSection = page.slice(page.indexOf('\n## `agentwire run`\n'));
    const block = (language: string) => {
      const open = agentSection.indexOf(`\n\`\`\`${language}\n`) + language.length + 5;
      return agentSection.slice(open, agentSection.indexOf('\n```\n', open) + 1);
    };
    const commandLine = block('sh')
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .find((line) => line.startsWith('agentwire run '));
    const words = parseShell(commandLine ?? '').filter((word) => typeof word === 'string');
    expect(words.slice(0, 2)).toEqual(['agentwire', 'run']);
    fake.script(
      { text: "I'll say hi first.", toolCalls: [{ name: 'echo', input: { message: 'hi' } }] },
      { toolCalls: [{ name: 'list_files', input: {} }] },
      { text: 'The echo tool answered "Echo: hi", and there are two files here: hello.txt and notes.md.' },
    );
    const run = await cli(words.slice(1));
    expect({ ...run, stdout: timeless(run.stdout) }).toEqual({
      code: 0,
      stdout: timeless(block('text')),
      stderr: '',
    });
  });

  it('exits 3 without asking the model when one server cannot start, and stops the others', async () => {
    const run = await cli([
      'run',
      'hi',
      '--stdio',
      EVERYTHING,
      '--stdio',
      'agentwire-no-such-command --flag',
    ]);
    expect(run.code).toBe(3);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'error: MCP server "agentwire-no-such-command": initialize failed: cannot start server ' +
        '"agentwire-no-such-command": command "agentwire-no-such-command" was not found on PATH\n',
    );
    expect(fake.requests).toEqual([]);
    expect(children(EVERYTHING_MARKER)).toEqual([]);
  });

  it('exits 3 with the provider and HTTP status when the model API refuses the request, never the key', async () => {
    fake.script({
      status: 401,
      body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
    });
    const run = await cli(['run', 'hi']);
    expect(run).toEqual({
      code: 3,
      stdout: '',
      stderr:
        // A run without tools says so before the model is asked (on purpose: a forgotten --stdio).
        'warning: the model has no tools: add servers (--stdio, --url, --config) or --tools default\n' +
        'error: anthropic request failed (HTTP 401): 401 ' +
        '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}\n',
    });
    // The key was sent, so it was there to leak.
    expect(fake.headers.at(-1)?.authorization).toBe('Bearer sk-ant-test-secret');
  });

  it('takes the model from the environment, and exits 1 when it still calls tools after --max-turns turns', async () => {
    fake.script({ toolCalls: [{ id: 'toolu_1', name: 'list_files', input: {} }] });
    const run = await cli(['run', 'List.', '--tools', 'default', '--root', workspace, '--max-turns', '1']);
    expect({ ...run, stdout: timeless(run.stdout) }).toEqual({
      code: 1,
      stdout: '▸ list_files [builtin] {}\n  ✓ list_files (N ms) notes.txt\n',
      stderr: 'error: the model was still calling tools after 1 turn (--max-turns)\n',
    });
    expect(fake.requests.map((request) => request.model)).toEqual(['claude-from-env']);
  });

  it('on Ctrl-C while the model is still writing closes its stream and exits 130', async () => {
    fake.script({ hang: true, text: 'Thinking about' });
    const interrupt = new AbortController();
    const run = startCli(['run', 'Think.', '--tools', 'default', '--root', workspace], interrupt.signal);
    await waitUntil(() => run.stdout === 'Thinking about', 10_000, 'the first words of the model');
    interrupt.abort(new Error('interrupted by SIGINT'));
    expect(await run.code).toBe(130);
    expect(run.stdout).toBe('Thinking about\n');
    expect(run.stderr).toBe('error: the agent run was aborted (interrupted by SIGINT)\n');
    await waitUntil(() => fake.abortedStreams === 1, 5000, 'the model stream to be closed');
  });

  it('on Ctrl-C while a server is still starting stops every server and exits 130', async () => {
    // `sleep` never answers `initialize`: the run is certainly still connecting when interrupted.
    const interrupt = new AbortController();
    const run = startCli(['run', 'hi', '--stdio', EVERYTHING, '--stdio', 'sleep 30'], interrupt.signal);
    await waitUntil(
      () => children(EVERYTHING_MARKER).length === 1 && children('sleep\u000030').length === 1,
      10_000,
      'both servers to be spawned',
    );
    interrupt.abort(new Error('interrupted by SIGINT'));
    expect(await run.code).toBe(130);
    expect(run.stderr).toBe('error: the agent run was aborted (interrupted by SIGINT)\n');
    expect(run.stdout).toBe('');
    expect(fake.requests).toEqual([]);
    expect([...children(EVERYTHING_MARKER), ...children('sleep\u000030')]).toEqual([]);
  });

  it('on Ctrl-C mid-tool cancels every MCP call, stops every server and exits 130', async () => {
    const logDir = tempDir();
    onTestFinished(logDir.remove);
    const log = path.join(logDir.dir, 'scripted.log');
    fake.script({
      text: 'Starting both.',
      toolCalls: [
        { id: 'toolu_long', name: 'trigger-long-running-operation', input: { duration: 30, steps: 30 } },
        { id: 'toolu_sleep', name: 'sleep', input: { ms: 30_000, progressEveryMs: 100 } },
      ],
    });
    const interrupt = new AbortController();
    const started = Date.now();
    const run = startCli(
      [
        'run',
        'Take your time.',
        '--stdio',
        EVERYTHING,
        '--stdio',
        SCRIPTED_SERVER,
        '--env',
        `FIXTURE_LOG=${log}`,
        '--yes',
      ],
      interrupt.signal,
    );
    // Both calls are in flight once each has reported progress.
    await waitUntil(
      () =>
        run.stdout.includes('  … trigger-long-running-operation 1/30') && run.stdout.includes('  … sleep 1'),
      15_000,
      'progress from both tools',
    );
    const servers = [...children(EVERYTHING_MARKER), ...children(SCRIPTED_MARKER)];
    expect(servers).toHaveLength(2);
    interrupt.abort(new Error('interrupted by SIGINT'));
    expect(await run.code).toBe(130);
    expect(run.stderr).toBe(`error: the agent run was aborted (interrupted by SIGINT)\n`);
    expect(run.stdout).toMatch(
      /^Starting both\.\n▸ trigger-long-running-operation \[server-everything\] \{"duration":30,"steps":30\}\n▸ sleep \[scripted-server\] \{"ms":30000,"progressEveryMs":100\}\n/,
    );
    expect(run.stdout.endsWith('\n')).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
    const cancelled = readLog(log).filter((message) => message.method === 'notifications/cancelled');
    const sleepCall = readLog(log).find(
      (message) => message.method === 'tools/call' && message.params?.name === 'sleep',
    );
    expect(cancelled.map((message) => message.params?.requestId)).toEqual([sleepCall?.id]);
    expect(servers.filter((pid) => isRunning(pid))).toEqual([]);
  });
});

describe('agentwire run against an OpenAI-compatible local server (OPENAI_BASE_URL only)', () => {
  const fake = useFakeModelServer(startFakeOpenAI);
  beforeEach(() => {
    vi.stubEnv('OPENAI_BASE_URL', fake.baseURL);
  });

  it('shows each failing tool call and the model recovering, with --prefix naming MCP tools by server', async () => {
    fake.script(
      { toolCalls: [{ id: 'call_1', name: 'read_file', input: { path: 'missing.txt' } }] },
      {
        toolCalls: [{ id: 'call_2', name: 'scripted-server__fail', input: { message: 'the disk is full' } }],
      },
      {
        text: 'Trying another way.',
        toolCalls: [{ id: 'call_3', name: 'scripted-server__echo', input: { text: 'recovered' } }],
      },
      { text: 'Recovered after two failures.' },
    );
    const run = await cli([
      'run',
      'Try hard.',
      '--stdio',
      SCRIPTED_SERVER,
      '--prefix',
      '--tools',
      'default',
      '--root',
      workspace,
      '--model',
      'openai:local-model',
      '--yes',
    ]);
    expect({ ...run, stdout: timeless(run.stdout) }).toEqual({
      code: 0,
      stdout: [
        '▸ read_file [builtin] {"path":"missing.txt"}',
        '  ✗ read_file (N ms) BuiltinToolError: "missing.txt" does not exist',
        '▸ scripted-server__fail [scripted-server] {"message":"the disk is full"}',
        '  ✗ scripted-server__fail (N ms) MCPToolError: Tool "fail" on MCP server "scripted-server" failed: the disk is full',
        'Trying another way.',
        '▸ scripted-server__echo [scripted-server] {"text":"recovered"}',
        '  ✓ scripted-server__echo (N ms) echo: recovered',
        'Recovered after two failures.',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(fake.requests.map((request) => request.model)).toEqual([
      'local-model',
      'local-model',
      'local-model',
      'local-model',
    ]);
    // The model was told about the failure, as an error, and could react to it.
    expect(fake.requests[2]?.messages).toContainEqual({
      role: 'tool',
      tool_call_id: 'call_2',
      content: 'Error: MCPToolError: Tool "fail" on MCP server "scripted-server" failed: the disk is full',
    });
  });

  it('reports a tool call that outlives --timeout to the model as an error, and goes on', async () => {
    fake.script(
      { toolCalls: [{ id: 'call_1', name: 'sleep', input: { ms: 30_000 } }] },
      { text: 'That took too long; giving up on it.' },
    );
    const run = await cli(['run', 'Sleep.', '--stdio', SCRIPTED_SERVER, '--timeout', '2000', '--yes']);
    expect({ ...run, stdout: timeless(run.stdout) }).toEqual({
      code: 0,
      stdout: [
        '▸ sleep [scripted-server] {"ms":30000}',
        '  ✗ sleep (N ms) MCPCallError: MCP server "scripted-server": tools/call "sleep" failed: timed out after 2000 ms',
        'That took too long; giving up on it.',
        '',
      ].join('\n'),
      stderr: '',
    });
  });
});

describe('agentwire run without a model provider', () => {
  it('exits 2 naming the environment variables to set, before starting any server', async () => {
    const run = await cli(['run', 'hi', '--stdio', EVERYTHING]);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: no model provider configured: set ANTHROPIC_API_KEY, or OPENAI_API_KEY and/or ' +
        'OPENAI_BASE_URL (optionally AGENTWIRE_MODEL=anthropic:<model> or openai:<model>)\n',
    });
    expect(children(EVERYTHING_MARKER)).toEqual([]);
  });

  it('names the missing variables for the provider --model asks for, never the values that are set', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-openai-secret-value');
    const run = await cli(['run', 'hi', '--model', 'anthropic:claude-test']);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: no model provider configured for provider "anthropic": set ANTHROPIC_API_KEY, or ' +
        'OPENAI_API_KEY and/or OPENAI_BASE_URL (optionally AGENTWIRE_MODEL=anthropic:<model> or openai:<model>)\n',
    });
  });
});

describe('agentwire run usage errors (exit 2, nothing started)', () => {
  it.each([
    [['run', '  '], 'error: the prompt is empty\n'],
    [['run', 'hi', '--root', '/tmp'], 'error: --root applies with --tools default only\n'],
    [
      ['run', 'hi', '--tools', 'default', '--root', '/agentwire-no-such-dir'],
      'error: --root: "/agentwire-no-such-dir" is not a directory\n',
    ],
    [
      ['run', 'hi', '--model', 'gpt 4.1'],
      'error: --model expects anthropic:<model-id>, openai:<model-id> or a bare <model-id>, e.g. openai:gpt-4.1 or gpt-4.1\n',
    ],
    [
      [
        'run',
        'hi',
        '--url',
        'http://a.test/mcp',
        '--url',
        'http://b.test/mcp',
        '--header',
        'Authorization: Bearer s3cret',
      ],
      'error: --header needs a single --url server (it would be sent to every one)\n',
    ],
    [['run', 'hi', '--env', 'A=1'], 'error: --env applies to --stdio servers only\n'],
    [
      ['run', 'hi', '--tools', 'all'],
      "error: option '--tools <set>' argument 'all' is invalid. Allowed choices are default.\n(add --help for usage)\n",
    ],
    [
      ['run', 'hi', '--max-turns', '0'],
      "error: option '--max-turns <n>' argument '0' is invalid. Expected a whole number of turns, at least 1.\n(add --help for usage)\n",
    ],
  ])('%j: %j', async (argv, stderr) => {
    expect(await cli(argv)).toEqual({ code: 2, stdout: '', stderr });
  });
});
