/**
 * The decision to send a lost request again (session/engine/replay-decision.ts), as a table: the request,
 * the tool's annotations and the attempt in, the exact decision out.
 */
import { describe, expect, it } from 'vitest';
import {
  decideReplay,
  REPEATABLE_METHODS,
  type ReplayDecision,
  type ReplayInput,
} from '../../../src/mcp/session/engine/replay-decision.js';

const resend = (reason: Extract<ReplayDecision, { action: 'resend' }>['reason']): ReplayDecision => ({
  action: 'resend',
  reason,
});
const fail = (
  reason: Extract<ReplayDecision, { action: 'fail' }>['reason'],
  error: 'may_have_run' | 'original',
): ReplayDecision => ({ action: 'fail', reason, error });

const TABLE: [string, ReplayInput, ReplayDecision][] = [
  ['a list, first loss', { method: 'tools/list', attempt: 1 }, resend('repeatable_method')],
  ['a list, lost again', { method: 'tools/list', attempt: 2 }, fail('attempts_spent', 'original')],
  ['resources/read', { method: 'resources/read', attempt: 1 }, resend('repeatable_method')],
  ['prompts/get', { method: 'prompts/get', attempt: 1 }, resend('repeatable_method')],
  ['completion/complete', { method: 'completion/complete', attempt: 1 }, resend('repeatable_method')],
  ['ping', { method: 'ping', attempt: 1 }, resend('repeatable_method')],
  [
    'logging/setLevel (sets a state)',
    { method: 'logging/setLevel', attempt: 1 },
    resend('repeatable_method'),
  ],
  ['tasks/cancel', { method: 'tasks/cancel', attempt: 1 }, fail('method_not_repeatable', 'original')],
  ['an unknown method', { method: 'x/unknown', attempt: 1 }, fail('method_not_repeatable', 'original')],
  [
    'a read-only tool',
    { method: 'tools/call', annotations: { readOnlyHint: true }, attempt: 1 },
    resend('read_only_tool'),
  ],
  [
    'an idempotent tool',
    { method: 'tools/call', annotations: { idempotentHint: true }, attempt: 1 },
    resend('idempotent_tool'),
  ],
  [
    'a read-only tool lost again',
    { method: 'tools/call', annotations: { readOnlyHint: true }, attempt: 2 },
    fail('attempts_spent', 'may_have_run'),
  ],
  [
    'a tool marked neither',
    {
      method: 'tools/call',
      annotations: { destructiveHint: false } as ReplayInput['annotations'],
      attempt: 1,
    },
    fail('tool_not_safe', 'may_have_run'),
  ],
  [
    'a tool whose hints are false',
    { method: 'tools/call', annotations: { readOnlyHint: false, idempotentHint: false }, attempt: 1 },
    fail('tool_not_safe', 'may_have_run'),
  ],
  ['a tool never listed', { method: 'tools/call', attempt: 1 }, fail('tool_not_safe', 'may_have_run')],
];

describe('decideReplay', () => {
  it.each(TABLE)('%s', (_name, input, decision) => {
    expect(decideReplay(input)).toEqual(decision);
  });

  it('re-sends exactly these methods', () => {
    expect([...REPEATABLE_METHODS].sort()).toEqual([
      'completion/complete',
      'logging/setLevel',
      'ping',
      'prompts/get',
      'prompts/list',
      'resources/list',
      'resources/read',
      'resources/subscribe',
      'resources/templates/list',
      'resources/unsubscribe',
      'server/discover',
      'tasks/get',
      'tasks/list',
      'tasks/result',
      'tools/list',
    ]);
    expect(REPEATABLE_METHODS.has('tools/call')).toBe(false);
  });
});
