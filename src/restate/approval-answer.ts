/**
 * A person's answer to a durable approval, as it comes through Restate's ingress
 * (`POST /restate/awakeables/<id>/resolve`, the body JSON): read without trusting it, since anyone who can
 * reach the ingress can send anything. Something that is not a decision denies the call (fail closed).
 */
import type { Serde } from '@restatedev/restate-sdk';
import type { ApprovalDecision } from '../agent/approval.js';
import { isRecord } from '../core/json.js';

/** The answer's bytes as JSON, or the text itself when it is not JSON (never throws: a bad answer denies). */
export const approvalSerde: Serde<unknown> = {
  contentType: 'application/json',
  serialize: (value) => new TextEncoder().encode(JSON.stringify(value ?? null)),
  deserialize: (data) => {
    const text = new TextDecoder().decode(data);
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  },
};

/** `answer` as a decision: as it is when it looks like one (the loop checks the rest), else a denial. */
export function decisionOf(answer: unknown): ApprovalDecision {
  if (typeof answer === 'boolean') return answer;
  if (isRecord(answer) && ['allow', 'deny', 'rewrite'].includes(answer.action as string)) {
    return answer as ApprovalDecision;
  }
  return {
    action: 'deny',
    reason:
      'the answer to the approval was not a decision (true, false, or an object with "action" "allow", "deny" or "rewrite")',
  };
}
