/**
 * Delivery of inbound messages in wire order, for the SDK's protocol layer: the one place agentwire orders
 * what it hands to `onmessage`.
 *
 * Why it is needed: the SDK's `Protocol` dispatches a notification on a microtask but a response
 * synchronously, and drops a call's progress handler with its response. When a server's last
 * `notifications/progress` and the response after it arrive in the same chunk (a stdio read, an SSE chunk),
 * delivering both at once lets the response overtake the progress, which is then lost ("unknown token").
 *
 * Why here: every transport that the SDK's `Client` drives has this problem, whoever drives it (the
 * Session, or a test with a bare SDK `Client`), so the transports keep the order at the point where
 * messages leave them. A response is deferred by one microtask, behind the SDK's dispatch, only while a
 * message delivered earlier in the same tick is still waiting for that dispatch; otherwise (the common
 * case: nothing came before it) it is delivered synchronously, with no hop.
 *
 * Shared by the stdio, Streamable HTTP and legacy HTTP+SSE transports.
 */
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/client';

/** Where messages go: the transport, whose `onmessage` the SDK (and the Session) may replace at any time. */
export interface MessageTarget {
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;
}

/** Hands messages to `target.onmessage` in wire order (see the file comment). One per transport. */
export class WireOrder {
  private dispatchPending = false;
  private readonly dispatched = (): void => {
    this.dispatchPending = false;
  };

  /**
   * @param target - the transport; its current `onmessage` is read at delivery time.
   * @param onThrow - receives what `onmessage` threw for a deferred response (it cannot reach the caller).
   */
  constructor(
    private readonly target: MessageTarget,
    private readonly onThrow: (error: unknown) => void,
  ) {}

  /** Delivers `message` now, or a microtask later when it is a response that must not overtake. */
  deliver(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    if ('method' in message) {
      if (!this.dispatchPending) {
        this.dispatchPending = true;
        queueMicrotask(this.dispatched);
      }
      this.target.onmessage?.(message, extra);
      return;
    }
    if (!this.dispatchPending) {
      this.target.onmessage?.(message, extra);
      return;
    }
    queueMicrotask(() => {
      try {
        this.target.onmessage?.(message, extra);
      } catch (error) {
        this.onThrow(error);
      }
    });
  }
}
