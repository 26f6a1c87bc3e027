/**
 * The seam durable runs use, without Restate: the loop's steps (src/agent/steps.ts) through a step runner
 * of the test's own, the turn's phases kept in the calls' order whatever the timing (turn-calls.ts), and a
 * person's answer read without trusting it (approval-answer.ts).
 */
import { describe, expect, it } from 'vitest';
import { Agent, promptWithOverrides } from '../../src/agent/agent.js';
import type { AgentEvent } from '../../src/agent/events.js';
import { type AgentSteps, INLINE_STEPS, type ToolCallStep } from '../../src/agent/steps.js';
import type { TurnResponse } from '../../src/agent/turn.js';
import { openai } from '../../src/providers/index.js';
import type { Message } from '../../src/providers/model.js';
import { decisionOf } from '../../src/restate/approval-answer.js';
import { TurnCalls } from '../../src/restate/turn-calls.js';
import { collectEvents, localTool } from '../agent/helpers.js';
import { startFakeOpenAI } from '../fixtures/fake-openai.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';

const add = localTool(
  'add',
  ({ a, b }, context) => `${Number(a) + Number(b)} (${context.idempotencyKey ?? 'no key'})`,
  {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
);

describe('the loop through a step runner', () => {
  const fake = useFakeModelServer(startFakeOpenAI);
  const model = () => openai({ model: 'fake-gpt', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });

  it('asks the runner for each model turn, each turn of calls and each call; a recorded turn is not requested', async () => {
    const seen: string[] = [];
    const recorded: TurnResponse = {
      message: {
        role: 'assistant',
        content: [{ type: 'tool_call', id: 'c1', name: 'add', arguments: '{"a":2,"b":3}' }],
      },
      stopReason: 'tool_use',
      usage: { inputTokens: 7, outputTokens: 3 },
    };
    const steps: AgentSteps = {
      // Turn 1 comes from a "journal": the model is never asked for it.
      modelTurn: (turn, emit, request) => {
        seen.push(`model ${turn}`);
        return turn === 1 ? Promise.resolve(recorded) : INLINE_STEPS.modelTurn(turn, emit, request);
      },
      toolCalls: (turn, calls, run) => {
        seen.push(`calls ${turn}: ${calls.map((call) => call.id).join(',')}`);
        return INLINE_STEPS.toolCalls(turn, calls, run);
      },
      toolCall: (step: ToolCallStep, emit, execute) => {
        seen.push(`call ${step.turn}.${step.index} ${step.name} ${JSON.stringify(step.input)}`);
        return execute(emit, `run-1/turn-${step.turn}/call-${step.index}`);
      },
    };
    fake.script({ text: 'Five.' });
    const history: Message[] = [
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: [{ type: 'text', text: 'Hello.' }] },
    ];
    const observed: AgentEvent['type'][] = [];
    const run = promptWithOverrides(
      new Agent({ model: model(), tools: [add] }),
      '2+3?',
      {},
      {
        history,
        steps,
        approve: undefined,
        observe: (event) => observed.push(event.type),
      },
    );
    const { events, error } = await collectEvents(run);
    expect(error).toBeUndefined();
    expect(seen).toEqual(['model 1', 'calls 1: c1', 'call 1.0 add {"a":2,"b":3}', 'model 2']);
    // Only turn 2 reached the model, on the conversation given, with turn 1's call answered.
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]?.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: '2+3?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '5 (run-1/turn-1/call-0)' },
    ]);
    expect(history).toHaveLength(6);
    expect(observed).toEqual(events.map((event) => event.type));
    const end = events.at(-1);
    expect(end?.type === 'agent_end' && end.result.usage).toEqual({ inputTokens: 32, outputTokens: 15 });
  });
});

describe('a turn of calls in a durable run', () => {
  const calls = ['a', 'b', 'c'].map((id) => ({
    type: 'tool_call' as const,
    id,
    name: 'tool',
    arguments: '{}',
  }));
  const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

  it('starts each phase in the calls\u2019 order, once every call has reached it, whatever the timing', async () => {
    const log: string[] = [];
    const turn = new TurnCalls<string, string>(calls, {
      approvals: async (waiting) => {
        log.push(`approvals ${waiting.map((one) => one.index).join(',')}`);
        // Answered out of order: c, then a.
        for (const index of [2, 0]) waiting.find((one) => one.index === index)?.resolve(`ok ${index}`);
      },
      run: async (ready) => {
        log.push(`run ${ready.map((one) => `${one.index}:${one.work}`).join(',')}`);
        for (const one of [...ready].reverse()) one.settle(Promise.resolve(`done ${one.index}`));
      },
    });
    expect(turn.claim('c')).toBe(2);
    const c = turn.approval(2, 'ask c');
    await tick();
    expect(log).toEqual([]);
    turn.done(1); // b: unknown tool, finished without asking
    await tick();
    expect(log).toEqual([]);
    const a = turn.approval(turn.claim('a'), 'ask a');
    expect(log).toEqual(['approvals 0,2']);
    await expect(c).resolves.toBe('ok 2');
    const cRun = turn.ready(2, 'work c');
    await tick();
    expect(log).toEqual(['approvals 0,2']);
    await expect(a).resolves.toBe('ok 0');
    const aRun = turn.ready(0, 'work a');
    expect(log).toEqual(['approvals 0,2', 'run 0:work a,2:work c']);
    await expect(aRun).resolves.toBe('done 0');
    await expect(cRun).resolves.toBe('done 2');
  });

  it('fails every waiting call when a phase fails (the attempt ended)', async () => {
    const ended = new Error('the attempt ended');
    const turn = new TurnCalls<string, string>(calls.slice(0, 2), {
      approvals: async () => {
        throw ended;
      },
      run: async () => {},
    });
    const a = turn.approval(0, 'a');
    const b = turn.approval(1, 'b');
    await expect(a).rejects.toBe(ended);
    await expect(b).rejects.toBe(ended);
    await expect(turn.ready(0, 'late')).rejects.toBe(ended);
  });
});

describe("a person's answer to an approval", () => {
  it('passes decisions on and denies anything else', () => {
    expect(decisionOf(true)).toBe(true);
    expect(decisionOf(false)).toBe(false);
    expect(decisionOf({ action: 'rewrite', input: { a: 1 } })).toEqual({
      action: 'rewrite',
      input: { a: 1 },
    });
    for (const answer of [null, 'yes', 1, { action: 'maybe' }, ['allow']]) {
      expect(decisionOf(answer)).toEqual({
        action: 'deny',
        reason: expect.stringContaining('not a decision'),
      });
    }
  });
});
