/**
 * What a transport's `send` returns when the message was taken at once (the stdio pipe accepted the line):
 * one settled promise, shared by every such send. A caller that only needs to hear of a failed send may
 * compare against it and skip chaining a handler onto it (the direct request path does, per call).
 */
export const SENT: Promise<void> = Promise.resolve();
