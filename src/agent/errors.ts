/**
 * Errors the agent itself throws. Model failures arrive as the provider's `ModelError`, unwrapped.
 */

/**
 * Why a run failed.
 * - `aborted`: the run's AbortSignal fired (or the event stream was closed early); the reason is on `cause`.
 * - `max_turns`: the model kept calling tools past `maxTurns` turns.
 * - `busy`: a run was started while another run of the same agent was still going.
 * - `tool_name_collision`: two tools would have the same name and the prefix policy is `none`.
 */
export type AgentErrorKind = 'aborted' | 'max_turns' | 'busy' | 'tool_name_collision';

/** A run or a tool registration failed for a reason the agent knows; switch on `kind`. */
export class AgentError extends Error {
  override name = 'AgentError';
  readonly kind: AgentErrorKind;

  constructor(kind: AgentErrorKind, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.kind = kind;
  }
}

/**
 * The run was aborted. Named `AbortError` (the platform's convention, so `error.name === 'AbortError'`
 * checks work) and still an {@link AgentError} of kind `aborted`.
 */
export class AgentAbortError extends AgentError {
  override name = 'AbortError';

  constructor(reason: unknown) {
    super('aborted', 'the agent run was aborted', { cause: reason });
  }
}
