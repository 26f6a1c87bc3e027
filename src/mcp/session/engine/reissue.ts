/**
 * Re-issuing a request lost in flight. In MCP 2026-07-28 over Streamable HTTP a response stream that breaks
 * before its response loses the request, and streams are not resumable: "clients MUST re-issue it as a new
 * request" (MCP spec 2026-07-28, "Transports > Streamable HTTP"; the transport marks such a failure
 * `reissue: true`). agentwire re-issues once, with a new id, what cannot change anything on the server:
 * - reads (`tools/list`, `resources/read`, `prompts/get`, the other lists, `completion/complete`,
 *   `server/discover`): always;
 * - `tools/call`: only for a tool whose annotations say `readOnlyHint` or `idempotentHint` (from the last
 *   `tools/list`). Any other tool may have run before the stream broke, and running it again could repeat
 *   its side effects, so the call fails with `MCPCallError` kind `transport`, `reissue: true`, its reason
 *   saying the tool may or may not have run; the caller decides whether to call again.
 */
import { MCPCallError } from '../../protocol/errors.js';
import type { MCPToolDefinition } from '../../protocol/types.js';

/** The methods re-issued once after a broken response stream: they read, and change nothing. */
const READS = new Set([
  'server/discover',
  'tools/list',
  'resources/list',
  'resources/templates/list',
  'resources/read',
  'prompts/list',
  'prompts/get',
  'completion/complete',
]);

/** Whether `error` is a request lost in flight (see the file comment). */
export function lostInFlight(error: unknown): boolean {
  return error instanceof MCPCallError && error.reissue === true;
}

/**
 * `attempt()`, and once more when it was lost in flight and `method` is a read; an aborted caller is not
 * retried. Each attempt is a new request with a new id.
 * @throws what the last attempt threw.
 */
export async function reissuingRead<T>(
  method: string,
  signal: AbortSignal | undefined,
  attempt: () => Promise<T>,
): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (!READS.has(method) || !lostInFlight(error) || signal?.aborted) throw error;
    return attempt();
  }
}

/** The tools of the last `tools/list` that may be re-issued: marked read-only or idempotent. */
export class ReissuableTools {
  #names = new Set<string>();

  /** Learns the annotations of a new tool list. */
  learn(tools: readonly MCPToolDefinition[]): void {
    this.#names = new Set(
      tools
        .filter((t) => t.annotations?.readOnlyHint === true || t.annotations?.idempotentHint === true)
        .map((t) => t.name),
    );
  }

  /**
   * `attempt()`, and once more when it was lost in flight and `tool` is re-issuable. A call to any other
   * tool lost in flight fails with the error reworded: it may or may not have run.
   * @throws MCPCallError as `attempt` does; kind `transport`, `reissue: true` for a call lost in flight.
   */
  async call<T>(tool: string, signal: AbortSignal | undefined, attempt: () => Promise<T>): Promise<T> {
    try {
      return await attempt();
    } catch (error) {
      if (!lostInFlight(error) || signal?.aborted) throw error;
      if (this.#names.has(tool)) return attempt();
      const lost = error as MCPCallError;
      throw lost.with({
        reason: `${lost.reason}; the tool may or may not have run, and was not re-sent (it is not marked readOnlyHint or idempotentHint)`,
      });
    }
  }
}
