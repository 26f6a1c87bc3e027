/**
 * The worker of the durable-run tests, run as a child process (bundled by durable-runs.test.ts): agentwire's
 * durable agent served with Restate's SDK on `WORKER_PORT`. Its agent: the fake OpenAI model, two local
 * tools, the recording fixture over stdio (test/fixtures/recording-server.mjs), server-everything over
 * HTTP with a bearer header, and an OAuth-protected server (test/fixtures/oauth-server.ts) whose tokens
 * come from the host's token store (an OAuthFileStore file). The secrets (the model's API key, the stdio
 * server's environment, the HTTP header, the OAuth tokens) stay in this process and go only where they
 * belong; the MCP clients connect when a run first needs them on this worker.
 * Prints `{"ready":<port>}` once it listens.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:http2';
import * as restate from '@restatedev/restate-sdk';
import { Agent } from '../../src/agent/agent.js';
import type { Tool } from '../../src/core/tool.js';
import { MCPClient, OAuthFileStore, StoredOAuthClientProvider } from '../../src/mcp/index.js';
import { openai } from '../../src/providers/openai.js';
import { durableAgent } from '../../src/restate/index.js';

const env = (name: string): string => {
  const value = process.env[name];
  if (value === undefined) throw new Error(`worker: ${name} is not set`);
  return value;
};
const log = env('RECORDER_LOG');

const model = openai({ model: 'fake-gpt', baseURL: env('MODEL_BASE_URL'), apiKey: env('MODEL_API_KEY') });
const recorder = MCPClient.fromStdio(
  {
    command: process.execPath,
    args: [env('RECORDER_SCRIPT'), '--log', log],
    env: { RECORDER_TOKEN: env('RECORDER_TOKEN') },
  },
  { name: 'recorder' },
);
const everything = MCPClient.fromUrl(env('EVERYTHING_URL'), {
  name: 'everything',
  headers: { authorization: `Bearer ${env('EVERYTHING_TOKEN')}` },
});

const guardedUrl = env('OAUTH_URL');
const guarded = MCPClient.fromUrl(guardedUrl, {
  name: 'guarded',
  authProvider: new StoredOAuthClientProvider({
    store: new OAuthFileStore(env('OAUTH_STORE')),
    serverUrl: guardedUrl,
  }),
});

/** A local tool that notes its call (and the idempotency key it got) in the recorder's file. */
function noteTool(name: string, slow: boolean): Tool {
  return {
    name,
    description: `Notes a text${slow ? ', slowly' : ''}.`,
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    async execute(input, context = {}) {
      const line = (phase: string) =>
        appendFileSync(
          log,
          `${JSON.stringify({ tool: name, arguments: input, key: context.idempotencyKey ?? null, phase, pid: process.pid })}\n`,
        );
      if (slow) {
        line('start');
        while (existsSync(`${log}.hold`)) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      line('done');
      return `${name}: ${String(input.text)}`;
    },
  };
}

/** The durable agent as object `name`, suspending a run silent for `inactivityMs`. */
const durable = (name: string, inactivityMs: number) =>
  durableAgent({
    name,
    agent: async () => {
      const one = new Agent({ model, tools: [noteTool('note', false), noteTool('slow_note', true)] });
      await one.addMcpServer(recorder);
      await one.addMcpServer(everything);
      await one.addMcpServer(guarded);
      return one;
    },
    requireApproval: ['publish'],
    retryInterrupted: ['slow_note'],
    onEvent: (event, conversation) =>
      appendFileSync(env('LIVE_LOG'), `${JSON.stringify({ object: name, conversation, ...event })}\n`),
    options: {
      inactivityTimeout: inactivityMs,
      retryPolicy: { initialInterval: 100, maxInterval: 300, exponentiationFactor: 2 },
    },
  });

// `patient` lets Restate suspend a run silent for 8 s (the approval test; longer than a new worker's start,
// see docs/durable-runs.md); `agent` keeps Restate's default.
const services = [durable('agent', 60_000), durable('patient', 8_000)];

// On loopback only (`restate.serve` listens on every interface).
const port = Number(env('WORKER_PORT'));
createServer(restate.createEndpointHandler({ services })).listen(port, '127.0.0.1', () =>
  process.stdout.write(`${JSON.stringify({ ready: port })}\n`),
);
