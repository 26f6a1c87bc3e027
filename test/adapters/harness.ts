/**
 * What every framework adapter test shares: the scripted OpenAI API (Chat Completions) the framework's
 * model talks to, the MCP servers the tools call (servers.ts), the turns the tests script and the
 * requests they read back.
 */

import type { FakeModelServer } from '../fixtures/fake-model-server.js';
import { startFakeOpenAI } from '../fixtures/fake-openai.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { type AdapterServers, useAdapterServers } from './servers.js';

/** A Chat Completions request body as the fake API received it. */
export interface ChatBody {
  tools?: {
    type: string;
    function: { name: string; description: string; parameters: unknown; strict?: boolean };
  }[];
  messages: unknown[];
}

/** The fake API and the servers, for the tests of one file; started before them, stopped after. */
export interface AdapterHarness {
  fake: FakeModelServer;
  env: AdapterServers;
  /** The `index`th request the fake API received in this test. */
  request(index: number): ChatBody;
}

export function useAdapterHarness(): AdapterHarness {
  const fake = useFakeModelServer(startFakeOpenAI);
  const env = useAdapterServers();
  return { fake, env, request: (index) => fake.requests[index] as unknown as ChatBody };
}

/** The model's last answer in {@link scriptSumAndFail}. */
export const SUM_AND_FAIL_ANSWER = 'The sum is 42; the other tool failed.';

/**
 * Scripts a turn that calls server-everything's `get-sum` (2 + 40) and the scripted `fail` at once, then
 * answers {@link SUM_AND_FAIL_ANSWER}. `separator` joins server and tool name where the framework's own
 * conversion turns `-` into `_`.
 */
export function scriptSumAndFail(fake: FakeModelServer, separator: '-' | '_' = '-'): void {
  fake.script(
    {
      toolCalls: [
        { id: 'call_sum', name: `everything__get${separator}sum`, input: { a: 2, b: 40 } },
        { id: 'call_fail', name: 'scripted__fail', input: { message: 'disk full' } },
      ],
    },
    { text: SUM_AND_FAIL_ANSWER },
  );
}

/** server-everything's `get-sum` as agentwire lists it (prefixed). */
export function sumTool(env: AdapterServers) {
  return env.servers.getTools({ prefix: true }).find((t) => t.name === 'everything__get-sum')!;
}

/** The id of the scripted server's `tools/call` of `sleep`. */
export function sleepCallId(env: AdapterServers): unknown {
  return env.scriptedLog().find((m) => m.method === 'tools/call' && m.params?.name === 'sleep')?.id;
}

/**
 * `get-tiny-image`'s result as a Chat Completions tool message of the AI SDK's (and Mastra's, on it):
 * Chat Completions takes no image in a tool message, so the parts go as JSON.
 */
export function tinyImageAsJson(data: string): string {
  return JSON.stringify([
    { type: 'text', text: "Here's the image you requested:" },
    { type: 'file', mediaType: 'image/png', data: { type: 'data', data } },
    { type: 'text', text: 'The image above is the MCP logo.' },
  ]);
}
