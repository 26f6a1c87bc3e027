/**
 * The one place a lost request is re-sent (session/engine/replay.ts): the decision of replay-decision.ts,
 * then the `beforeResend` hook, then the re-send on the same session (a broken 2026-07-28 stream) or on the
 * renewed one (a forgotten 2025-11-25 session). The end-to-end behaviour is in
 * test/mcp/client/session-renewal.test.ts and test/mcp/era2026/reissue.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { Replays, type ResendInfo } from '../../../src/mcp/session/engine/replay.js';

const broken = () =>
  new MCPCallError('transport', 'the server ended the response stream before the response', {
    reissue: true,
  });
const expired = () =>
  new MCPCallError('session_expired', 'the server no longer knows the session (HTTP 404)', { status: 404 });

/** A send that fails with `failures` in turn, then answers `ok on <session>`; it records where it sent. */
function sender(...failures: MCPCallError[]) {
  const sentOn: string[] = [];
  const send = async (on: string) => {
    sentOn.push(on);
    const failure = failures.shift();
    if (failure) throw failure;
    return `ok on ${on}`;
  };
  return { sentOn, send };
}

/** An owner that renews session `<on>` as `<on>+`; it records each session it renewed. */
function renewer() {
  const renewed: string[] = [];
  const renew = (on: string) => {
    renewed.push(on);
    return Promise.resolve(`${on}+`);
  };
  return { renewed, renew };
}

describe('Replays', () => {
  it('asks beforeResend with what was lost, and re-sends when it agrees', async () => {
    const seen: ResendInfo[] = [];
    const replays = new Replays<string>((info) => {
      seen.push(info);
      return true;
    });
    const first = broken();
    const { sentOn, send } = sender();
    await expect(replays.after(first, { method: 'tools/list' }, 'a', send)).resolves.toBe('ok on a');
    expect(sentOn).toEqual(['a']);
    expect(seen).toEqual([
      { method: 'tools/list', loss: 'stream_broken', attempt: 1, error: first, reason: 'repeatable_method' },
    ]);
  });

  it('a veto fails a read with its own error, without re-sending', async () => {
    const replays = new Replays<string>(async () => false);
    const first = broken();
    const { sentOn, send } = sender();
    await expect(replays.after(first, { method: 'resources/read' }, 'a', send)).rejects.toBe(first);
    expect(sentOn).toEqual([]);
  });

  it('a veto fails a read-only tool call with kind may_have_run', async () => {
    const replays = new Replays<string>(() => false);
    replays.learn([{ name: 'peek', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }]);
    const { sentOn, send } = sender();
    const error = (await replays
      .after(broken(), { method: 'tools/call', toolName: 'peek' }, 'a', send)
      .catch((e: unknown) => e)) as MCPCallError;
    expect([error.kind, error.reissue, error.reason]).toEqual([
      'may_have_run',
      true,
      'the server ended the response stream before the response; the tool may or may not have run, and was not re-sent (the beforeResend hook declined)',
    ]);
    expect(sentOn).toEqual([]);
  });

  it('never asks the hook about a call the decision refuses', async () => {
    let asked = 0;
    const replays = new Replays<string>(() => {
      asked++;
      return true;
    });
    const error = (await replays
      .after(broken(), { method: 'tools/call', toolName: 'bump' }, 'a', sender().send)
      .catch((e: unknown) => e)) as MCPCallError;
    expect(error.kind).toBe('may_have_run');
    expect(asked).toBe(0);
  });

  it('re-sends a read lost on a forgotten session on the renewed one, once', async () => {
    const { renewed, renew } = renewer();
    const replays = new Replays<string>(undefined, renew);
    const second = expired();
    const { sentOn, send } = sender(second);
    await expect(replays.after(expired(), { method: 'ping' }, 'a', send)).rejects.toBe(second);
    // Lost again on the renewed session: that one is renewed too, and nothing more is sent.
    expect(sentOn).toEqual(['a+']);
    expect(renewed).toEqual(['a', 'a+']);
  });

  it('fails with session_expired as it is when no owner renews the session', async () => {
    const first = expired();
    const replays = new Replays<string>(
      () => true,
      () => undefined,
    );
    const { sentOn, send } = sender();
    await expect(replays.after(first, { method: 'ping' }, 'a', send)).rejects.toBe(first);
    expect(sentOn).toEqual([]);
  });

  it('renews a forgotten session even when the caller has stopped waiting, and sends nothing', async () => {
    const { renewed, renew } = renewer();
    const replays = new Replays<string>(undefined, renew);
    const first = expired();
    const { sentOn, send } = sender();
    await expect(
      replays.after(first, { method: 'ping', signal: AbortSignal.abort() }, 'a', send),
    ).rejects.toBe(first);
    expect(renewed).toEqual(['a']);
    expect(sentOn).toEqual([]);
  });

  it('does not re-send for a caller whose signal fired, nor a failure that lost nothing', async () => {
    const replays = new Replays<string>();
    const aborted = AbortSignal.abort();
    const first = broken();
    await expect(replays.after(first, { method: 'ping', signal: aborted }, 'a', sender().send)).rejects.toBe(
      first,
    );
    const other = new MCPCallError('timeout', 'timed out after 5 ms', { timeoutMs: 5 });
    await expect(replays.after(other, { method: 'ping' }, 'a', sender().send)).rejects.toBe(other);
  });
});
