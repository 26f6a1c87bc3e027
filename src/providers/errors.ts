/**
 * Errors a model adapter throws besides aborts. The vendor SDK's error is kept on `cause`.
 */

/**
 * Why a model could not be used.
 * - `not_configured`: no provider is configured (no API key in the environment or options), or the
 *   provider's SDK package (an optional peer dependency) is not installed.
 * - `bad_response`: the vendor's stream ended without a complete response, or was malformed.
 * - `request_failed`: the vendor SDK rejected the request (HTTP status on `status` when there was one).
 * - `timeout`: the stream stayed silent for the request's `idleTimeoutMs`, or the whole request took longer
 *   than its `requestTimeoutMs` (which one on `timeout`, the bound on `timeoutMs`); the request was aborted.
 */
export type ModelErrorKind = 'not_configured' | 'bad_response' | 'request_failed' | 'timeout';

/** A model request failed; switch on `kind`; the vendor SDK's error is on `cause`. */
export class ModelError extends Error {
  override name = 'ModelError';
  readonly kind: ModelErrorKind;
  /** `anthropic`, `openai`, … */
  readonly provider: string | undefined;
  /** The HTTP status of the vendor's answer, when it answered with one. */
  readonly status: number | undefined;
  /** Kind `timeout`: which bound was hit, `idle` (no stream event) or `request` (the whole request). */
  readonly timeout: 'idle' | 'request' | undefined;
  /** Kind `timeout`: the bound that was hit, in ms. */
  readonly timeoutMs: number | undefined;

  constructor(
    kind: ModelErrorKind,
    message: string,
    options: {
      provider?: string;
      status?: number | undefined;
      timeout?: 'idle' | 'request';
      timeoutMs?: number;
      cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
    this.provider = options.provider;
    this.status = options.status;
    this.timeout = options.timeout;
    this.timeoutMs = options.timeoutMs;
  }
}

/**
 * Turns whatever a vendor SDK threw into what adapters promise: when the request's signal fired, a
 * `DOMException` named `AbortError` (the platform's convention, whatever class the SDK used); otherwise a
 * {@link ModelError} of kind `request_failed` naming the provider and HTTP status. Never includes request
 * headers (API keys) in the message.
 */
export function toModelError(error: unknown, provider: string, signal: AbortSignal | undefined): Error {
  if (signal?.aborted) {
    const abort = new DOMException(`${provider} model stream aborted`, 'AbortError');
    return Object.assign(abort, { cause: signal.reason });
  }
  if (error instanceof ModelError) return error;
  const status = statusOf(error);
  const detail = error instanceof Error ? error.message : String(error);
  const where = status === undefined ? '' : ` (HTTP ${status})`;
  return new ModelError('request_failed', `${provider} request failed${where}: ${detail}`, {
    provider,
    status,
    cause: error,
  });
}

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  return typeof error.status === 'number' ? error.status : undefined;
}
