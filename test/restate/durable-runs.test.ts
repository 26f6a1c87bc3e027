/**
 * Durable runs on a real Restate server (agentwire/restate): restate-server from node_modules on free
 * loopback ports, agentwire's worker in a child process (worker.ts), the scripted fake OpenAI model,
 * server-everything over HTTP and the recording fixture over stdio (each of its calls appended to a file).
 * Workers are killed with SIGKILL after a tool call completed, during tool calls and while a run waits for
 * approvals; a new worker finishes each run. The tests assert the exact model requests, the exact calls
 * the tools saw, the history and the event log, and that no secret reached Restate's journal or state.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuthFileStore } from '../../src/mcp/index.js';
import { DurableAgentClient, type PendingApproval, type SequencedEvent } from '../../src/restate/index.js';
import type { FakeModelServer, FakeReply } from '../fixtures/fake-model-server.js';
import { startFakeOpenAI } from '../fixtures/fake-openai.js';
import { type EverythingServer, freePort, startEverything } from '../fixtures/http-everything.js';
import { OAuthFixture } from '../fixtures/oauth-server.js';
import { needsProgram } from '../fixtures/system-programs.js';
import { ROOT, tempDir, waitUntil } from '../helpers.js';
import { type RestateServer, restateServerBinary, startRestate } from './restate-server.js';

const binary = restateServerBinary();
const hasRestate = needsProgram('restate-server', import.meta.url, binary !== undefined);

const OUT_DIR = path.join(ROOT, 'node_modules', '.agentwire-restate-test');
const WORKER = path.join(OUT_DIR, 'worker.mjs');
const RECORDER = path.join(ROOT, 'test', 'fixtures', 'recording-server.mjs');
/** What only the worker knows: never in Restate's journal or state (the OAuth tokens are added once issued). */
const SECRETS: Record<string, string> = {
  model: 'sk-durable-model-key-7f3a9c',
  recorder: 'recorder-env-token-51b2e8',
  everything: 'everything-header-token-c04d6f',
};

interface Worker {
  child: ChildProcess;
  exited: Promise<void>;
}

let restate: RestateServer | undefined;
let model: FakeModelServer | undefined;
let everything: EverythingServer | undefined;
let oauth: OAuthFixture | undefined;
let dir: { dir: string; remove: () => void } | undefined;
let worker: Worker | undefined;
let workerPort = 0;
let client: DurableAgentClient;

const callsFile = () => path.join(dir!.dir, 'calls.jsonl');
const liveFile = () => path.join(dir!.dir, 'live.jsonl');
const holdFile = () => `${callsFile()}.hold`;

/** A tool call as the recording server (or a local note tool) wrote it. */
interface Call {
  tool: string;
  arguments: { text?: string };
  phase: 'start' | 'done';
  pid: number;
  meta?: unknown;
  key?: string | null;
  token?: boolean;
}

function calls(text?: string): Call[] {
  if (!existsSync(callsFile())) return [];
  const all = readFileSync(callsFile(), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Call);
  return text === undefined ? all : all.filter((call) => call.arguments.text?.startsWith(text));
}

/** Starts a worker on the registered port; resolves once it listens. */
function startWorker(): Promise<Worker> {
  const child = spawn(process.execPath, [WORKER], {
    env: {
      ...process.env,
      WORKER_PORT: String(workerPort),
      MODEL_BASE_URL: model!.baseURL,
      MODEL_API_KEY: SECRETS.model,
      RECORDER_SCRIPT: RECORDER,
      RECORDER_LOG: callsFile(),
      RECORDER_TOKEN: SECRETS.recorder,
      EVERYTHING_URL: everything!.url,
      EVERYTHING_TOKEN: SECRETS.everything,
      OAUTH_URL: oauth!.url,
      OAUTH_STORE: path.join(dir!.dir, 'oauth.json'),
      LIVE_LOG: liveFile(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-10_000);
    if (process.env.RESTATE_TEST_DEBUG) process.stderr.write(chunk);
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`the worker exited (${code}) before it listened:\n${stderr}`)),
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      if (process.env.RESTATE_TEST_DEBUG) process.stderr.write(chunk);
      if (chunk.toString().includes('"ready"')) resolve({ child, exited });
    });
  });
}

/** Kills the worker with SIGKILL: no cleanup, no goodbye, as a crash or an OOM kill would. */
async function killWorker(): Promise<void> {
  const running = worker;
  worker = undefined;
  running?.child.kill('SIGKILL');
  await running?.exited;
}

/** The invocation's status in Restate (`running`, `suspended`, `backing-off`, `completed`, …). */
async function statusOf(invocationId: string): Promise<string | undefined> {
  const rows = await restate!.query(`SELECT status FROM sys_invocation WHERE id = '${invocationId}'`);
  return rows[0]?.status as string | undefined;
}

/**
 * The logged events without what differs between any two equal runs: the seq, a call's wall time, and the
 * order in which a turn's concurrent calls end (each run of `tool_end`s sorted by call id).
 */
function comparable(events: SequencedEvent[]): unknown[] {
  const out = events.map(({ seq: _seq, ...event }) =>
    'durationMs' in event ? { ...event, durationMs: 0 } : event,
  );
  for (let start = 0; start < out.length; start += 1) {
    let end = start;
    while (out[end]?.type === 'tool_end') end += 1;
    if (end - start > 1) {
      const ends = out.slice(start, end) as { toolCallId: string }[];
      ends.sort((a, b) => a.toolCallId.localeCompare(b.toolCallId));
      out.splice(start, ends.length, ...(ends as typeof out));
    }
    start = Math.max(start, end);
  }
  return out;
}

/** The tool results of the fake model's `index`th request (OpenAI `tool` messages): call id → content. */
function toolResultsOf(index: number): Record<string, unknown> {
  const messages = (model!.requests[index]?.messages ?? []) as {
    role: string;
    content: unknown;
    tool_call_id?: string;
  }[];
  return Object.fromEntries(
    messages
      .filter((message) => message.role === 'tool')
      .map((message) => [message.tool_call_id, message.content]),
  );
}

/** Polls `check` every 50 ms until it resolves true, or fails after `ms`. */
async function eventually(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Every row as text a person could read: each string as it is, hex (Restate's binary columns: raw journal
 * entries, state values) decoded as UTF-8 too, and JSON arrays of bytes (in `entry_json`) likewise.
 */
function readable(rows: Record<string, unknown>[]): string {
  const parts: string[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      parts.push(value);
      if (value.length >= 2 && value.length % 2 === 0 && /^[0-9a-f]+$/i.test(value)) {
        parts.push(Buffer.from(value, 'hex').toString('utf8'));
      }
      if (value.startsWith('{') || value.startsWith('[')) {
        try {
          visit(JSON.parse(value));
        } catch {
          // not JSON after all
        }
      }
    } else if (Array.isArray(value)) {
      if (value.length > 0 && value.every((item) => Number.isInteger(item) && item >= 0 && item < 256)) {
        parts.push(Buffer.from(value as number[]).toString('utf8'));
      } else value.forEach(visit);
    } else if (typeof value === 'object' && value !== null) Object.values(value).forEach(visit);
  };
  visit(rows);
  return parts.join('\n');
}

beforeAll(async () => {
  if (!hasRestate) return;
  mkdirSync(OUT_DIR, { recursive: true });
  const { build } = await import('rolldown');
  await build({
    input: path.join(ROOT, 'test', 'restate', 'worker.ts'),
    platform: 'node',
    external: [/node_modules/, /^[^./]/],
    output: { file: WORKER, format: 'esm' },
    logLevel: 'silent',
  });
  dir = tempDir('agentwire-restate-run-');
  [restate, model, everything, oauth] = await Promise.all([
    startRestate(binary!),
    startFakeOpenAI(),
    startEverything('streamableHttp'),
    OAuthFixture.start(),
  ]);
  // A login made earlier, in the host's token store: the workers read their tokens from there.
  const { access, refresh } = oauth.issueTokens();
  Object.assign(SECRETS, { access, refresh });
  new OAuthFileStore(path.join(dir.dir, 'oauth.json')).saveLogin({
    issuer: oauth.origin,
    resource: oauth.url,
    tokens: { access_token: access, token_type: 'Bearer', refresh_token: refresh },
    savedAtMs: Date.now(),
  });
  workerPort = await freePort();
  worker = await startWorker();
  await restate.register(`http://127.0.0.1:${workerPort}`);
  client = new DurableAgentClient({ ingressUrl: restate.ingress });
}, 60_000);

afterAll(async () => {
  await killWorker();
  await Promise.all([restate?.stop(), model?.close(), everything?.stop(), oauth?.close()]);
  dir?.remove();
});

describe.skipIf(!hasRestate)('durable runs on Restate', () => {
  const turnOne: FakeReply = {
    text: 'Recording.',
    toolCalls: [
      { id: 'call_record', name: 'record', input: { text: 'one' } },
      { id: 'call_echo', name: 'echo', input: { message: 'hi' } },
      { id: 'call_whoami', name: 'whoami', input: {} },
    ],
  };
  let calm: SequencedEvent[] = [];
  let calmHistory: unknown;
  let calmUsage: unknown;

  it('runs uninterrupted: each model turn asked once, each tool called once, the events logged in order', async () => {
    model!.requests.length = 0;
    model!.script(turnOne, { text: 'All done.' });
    const result = await client.run('calm', 'Record one, then echo hi.');
    expect(result).toMatchObject({
      text: 'All done.',
      turns: 2,
      stopReason: 'end_turn',
      events: { from: 0 },
    });
    expect(result.usage).toEqual({ inputTokens: 50, outputTokens: 24 });
    calmUsage = result.usage;
    expect(model!.requests).toHaveLength(2);
    expect(calls('one')).toEqual([
      expect.objectContaining({
        tool: 'record',
        phase: 'done',
        token: true,
        // The MCP server sees the call's idempotency key in the request's `_meta`.
        meta: {
          'dev.agentwire/idempotency-key': `${result.runId}/turn-1/call-0`,
          progressToken: expect.stringMatching(/^aw-\d+$/),
        },
      }),
    ]);
    const page = await client.events('calm');
    calm = page.events;
    expect(page.next).toBe(result.events.next);
    expect(calm.map((event) => event.seq)).toEqual([...Array(page.next).keys()]);
    const types = calm.map((event) => event.type).filter((type) => type !== 'text_delta');
    expect(types).toEqual([
      'agent_start',
      'turn_start',
      'tool_start',
      'tool_start',
      'tool_start',
      'tool_end',
      'tool_end',
      'tool_end',
      'turn_end',
      'turn_start',
      'turn_end',
      'agent_end',
    ]);
    const text = calm.flatMap((event) => (event.type === 'text_delta' ? [event.text] : [])).join('');
    expect(text).toBe('Recording.All done.');
    calmHistory = await client.history('calm');
    expect(calmHistory).toEqual([
      { role: 'user', content: 'Record one, then echo hi.' },
      expect.objectContaining({ role: 'assistant' }),
      {
        role: 'tool',
        results: [
          { toolCallId: 'call_record', name: 'record', content: 'record: one', isError: false },
          { toolCallId: 'call_echo', name: 'echo', content: 'Echo: hi', isError: false },
          {
            toolCallId: 'call_whoami',
            name: 'whoami',
            content: 'whoami with scopes: mcp:read',
            isError: false,
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'All done.' }] },
    ]);
  });

  it('resumes a run killed after its tool calls completed: no model turn asked again, no call made again', async () => {
    const calmRequests = [...model!.requests];
    model!.requests.length = 0;
    const seen = calls().length;
    const initializes = () => oauth!.mcpCalls().filter((call) => call.method === 'initialize');
    const initialized = initializes().length;
    const hung = model!.hanging();
    model!.script(turnOne, { hang: true, text: 'All' });
    const { invocationId } = await client.start('after', 'Record one, then echo hi.');
    // Turn 2 is streaming: turn 1 and both of its calls are journaled.
    await hung;
    await killWorker();
    model!.script({ text: 'All done.' });
    worker = await startWorker();
    const result = await client.result(invocationId);
    expect(result).toMatchObject({ text: 'All done.', turns: 2 });
    expect(result.usage).toEqual(calmUsage);
    // The new worker connected again, with the login from the host's token store.
    expect(initializes().slice(initialized)).toEqual([
      { method: 'initialize', authorization: `Bearer ${SECRETS.access}` },
    ]);
    // Turn 1 once; turn 2 twice: the first time never completed (the worker died streaming it).
    expect(model!.requests).toEqual([calmRequests[0], calmRequests[1], calmRequests[1]]);
    expect(
      calls()
        .slice(seen)
        .map((call) => [call.tool, call.arguments.text, call.phase]),
    ).toEqual([['record', 'one', 'done']]);
    expect(await client.history('after')).toEqual(calmHistory);
    const { events, next } = await client.events('after');
    expect(events.map((event) => event.seq)).toEqual([...Array(next).keys()]);
    expect(comparable(events)).toEqual(comparable(calm));
    // What the workers told as it happened: each logged event, with its seq (the last telling of a seq wins).
    const live = new Map<number, unknown>();
    for (const line of readFileSync(liveFile(), 'utf8').split('\n').filter(Boolean)) {
      const { object, conversation, ...event } = JSON.parse(line) as SequencedEvent & {
        object: string;
        conversation: string;
      };
      if (object === 'agent' && conversation === 'after') live.set(event.seq, event);
    }
    expect([...live.keys()].sort((a, b) => a - b)).toEqual([...Array(next).keys()]);
    expect(comparable([...live.values()] as SequencedEvent[]).length).toBe(events.length);
    for (const event of events)
      expect(comparable([live.get(event.seq) as SequencedEvent])).toEqual(comparable([event]));
  });

  it('makes an interrupted call again only when the tool allows it; the model hears of the other', async () => {
    model!.requests.length = 0;
    const seen = calls().length;
    writeFileSync(holdFile(), '');
    model!.script({
      toolCalls: [
        { id: 'call_a', name: 'slow_record', input: { text: 'two' } },
        { id: 'call_b', name: 'slow_upsert', input: { text: 'three' } },
        { id: 'call_c', name: 'slow_note', input: { text: 'four' } },
      ],
    });
    const { invocationId } = await client.start('during', 'Do three slow things.');
    await waitUntil(() => calls().slice(seen).length === 3, 20_000, 'the three calls to start');
    await killWorker();
    rmSync(holdFile());
    model!.script({ text: 'Two done; "two" may have been recorded.' });
    worker = await startWorker();
    const result = await client.result(invocationId);
    expect(result.text).toBe('Two done; "two" may have been recorded.');
    expect(model!.requests).toHaveLength(2);
    const made = calls().slice(seen);
    expect(made.map((call) => `${call.tool} ${call.arguments.text} ${call.phase}`).sort()).toEqual([
      'slow_note four done',
      'slow_note four start',
      'slow_note four start',
      'slow_record two start',
      'slow_upsert three done',
      'slow_upsert three start',
      'slow_upsert three start',
    ]);
    // The stdio server the second worker made the call on is a new process (spawned by that worker).
    const upserts = made.filter((call) => call.tool === 'slow_upsert' && call.phase === 'start');
    expect(new Set(upserts.map((call) => call.pid)).size).toBe(2);
    // The local tool got the same idempotency key both times.
    const notes = made.filter((call) => call.tool === 'slow_note');
    expect(notes.map((call) => call.key)).toEqual(Array(3).fill(`${result.runId}/turn-1/call-2`));
    // The MCP tools' server saw each call's key in `_meta`, the same when the second worker made it again.
    const metaOf = (tool: string) => made.filter((call) => call.tool === tool).map((call) => call.meta);
    expect(metaOf('slow_upsert')).toEqual(
      Array(3).fill({
        'dev.agentwire/idempotency-key': `${result.runId}/turn-1/call-1`,
        progressToken: expect.stringMatching(/^aw-\d+$/),
      }),
    );
    expect(metaOf('slow_record')).toEqual([
      {
        'dev.agentwire/idempotency-key': `${result.runId}/turn-1/call-0`,
        progressToken: expect.stringMatching(/^aw-\d+$/),
      },
    ]);
    const interrupted =
      'Tool call "slow_record" was interrupted: the process making it stopped before its outcome was recorded, ' +
      'so it may or may not have taken effect. It was called with {"text":"two"}. Check whether it took effect ' +
      'before calling it again.';
    expect(toolResultsOf(1)).toEqual({
      call_a: expect.stringContaining(interrupted),
      call_b: 'slow_upsert: three',
      call_c: 'slow_note: four',
    });
    const history = await client.history('during');
    expect(history[2]).toEqual({
      role: 'tool',
      results: [
        { toolCallId: 'call_a', name: 'slow_record', content: interrupted, isError: true },
        { toolCallId: 'call_b', name: 'slow_upsert', content: 'slow_upsert: three', isError: false },
        { toolCallId: 'call_c', name: 'slow_note', content: 'slow_note: four', isError: false },
      ],
    });
  });

  it('waits for approvals without a process: the person answers through the ingress while no worker runs', async () => {
    const patient = new DurableAgentClient({ ingressUrl: restate!.ingress, name: 'patient' });
    model!.requests.length = 0;
    const seen = calls().length;
    model!.script(
      {
        toolCalls: [
          { id: 'call_yes', name: 'publish', input: { text: 'yes' } },
          { id: 'call_no', name: 'publish', input: { text: 'no' } },
          { id: 'call_free', name: 'record', input: { text: 'five' } },
        ],
      },
      { text: 'Published one of two.' },
    );
    const { invocationId } = await patient.start('approval', 'Publish yes and no, record five.');
    let pending: PendingApproval[] = [];
    await eventually(
      async () => {
        pending = await patient.approvals('approval');
        return pending.length === 2;
      },
      20_000,
      'the approvals',
    );
    expect(pending.map(({ toolCallId, name, input }) => ({ toolCallId, name, input }))).toEqual([
      { toolCallId: 'call_yes', name: 'publish', input: { text: 'yes' } },
      { toolCallId: 'call_no', name: 'publish', input: { text: 'no' } },
    ]);
    // Observable while the run waits: the calls started and the approvals asked for.
    const waiting = (await patient.events('approval')).events;
    expect(waiting.filter((event) => event.type === 'tool_start').map((event) => event.toolCallId)).toEqual([
      'call_yes',
      'call_no',
      'call_free',
    ]);
    expect(
      waiting.filter((event) => event.type === 'approval_requested').map((event) => event.toolCallId),
    ).toEqual(['call_yes', 'call_no']);
    // Restate suspends the waiting run: no process holds it. Then the worker goes too.
    await eventually(
      async () => (await statusOf(invocationId)) === 'suspended',
      20_000,
      'the run to suspend',
    );
    await killWorker();
    await patient.decide(pending[0]!.awakeableId, true);
    await patient.decide(pending[1]!.awakeableId, { action: 'deny', reason: 'not this one' });
    worker = await startWorker();
    const result = await patient.result(invocationId);
    expect(result.text).toBe('Published one of two.');
    expect(model!.requests).toHaveLength(2);
    expect(
      calls()
        .slice(seen)
        .map((call) => `${call.tool} ${call.arguments.text} ${call.phase}`)
        .sort(),
    ).toEqual(['publish yes done', 'record five done']);
    expect(toolResultsOf(1)).toEqual({
      call_yes: 'publish: yes',
      call_no: expect.stringContaining('Tool call "publish" was denied: not this one'),
      call_free: 'record: five',
    });
    expect(await patient.approvals('approval')).toEqual([]);
  });

  it('keeps secrets out of the journal and the state: the API key, the stdio environment, the HTTP header', async () => {
    const tables = [
      'sys_journal',
      'sys_journal_events',
      'state',
      'sys_invocation',
      'sys_invocation_state',
      'sys_promise',
    ];
    const rows = (await Promise.all(tables.map((table) => restate!.query(`SELECT * FROM ${table}`)))).flat();
    const text = readable(rows);
    // What the runs did is there, readable by whoever runs Restate…
    expect(text).toContain('Record one, then echo hi.');
    expect(text).toContain('record: one');
    expect(text).toContain('slow_upsert: three');
    // …and the secrets the worker used are not.
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    // They were used: the model saw its key, the stdio server its environment.
    expect(model!.headers.some((headers) => headers.authorization === `Bearer ${SECRETS.model}`)).toBe(true);
    expect(calls().every((call) => call.token !== false)).toBe(true);
  });
});
