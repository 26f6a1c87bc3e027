import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { samplingConversation } from '../../src/agent/sampling.js';
import { anthropic } from '../../src/providers/index.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import type { FakeModelServer } from '../fixtures/fake-model-server.js';
import { EVERYTHING } from '../helpers.js';

describe('sampling answered by the agent model', () => {
  let fake: FakeModelServer;
  beforeAll(async () => {
    fake = await startFakeAnthropic();
  });
  afterAll(async () => {
    await fake.close();
  });

  it("answers server-everything's sampling/createMessage with the agent's own model", async () => {
    fake.script({ text: 'sampled by the agent model' });
    const model = anthropic({ model: 'claude-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });
    const agent = new Agent({ model });
    try {
      await agent.withMcpServerStdio(process.execPath, [EVERYTHING]);
      const tool = [...agent.getTools().values()].find((t) => t.name === 'trigger-sampling-request');
      expect(tool).toBeDefined();
      const result = String(await tool!.execute({ prompt: 'say hi', maxTokens: 64 }));
      const reply = JSON.parse(result.replace(/^LLM sampling result: \n/, ''));
      expect(reply).toEqual({
        role: 'assistant',
        content: { type: 'text', text: 'sampled by the agent model' },
        model: 'claude-test',
        stopReason: 'endTurn',
      });
      expect(fake.requests).toHaveLength(1);
      expect(fake.requests[0]).toMatchObject({
        model: 'claude-test',
        max_tokens: 64,
        system: 'You are a helpful test server.',
        messages: [{ role: 'user', content: 'Resource trigger-sampling-request context: say hi' }],
      });
    } finally {
      await agent.close();
    }
  });
});

describe('samplingConversation', () => {
  it('joins consecutive messages of one role and renders non-text blocks as placeholders', () => {
    expect(
      samplingConversation({
        maxTokens: 10,
        messages: [
          { role: 'user', content: { type: 'text', text: 'a' } },
          { role: 'user', content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
          { role: 'assistant', content: { type: 'text', text: 'b' } },
        ],
      }),
    ).toEqual([
      { role: 'user', content: 'a\n\n[image content: image/png, 3 B]' },
      { role: 'assistant', content: [{ type: 'text', text: 'b' }] },
    ]);
  });
});
