/**
 * `completion/complete`: the values a server suggests for a prompt's argument or a resource template's
 * variable (MCP spec 2025-11-25, "Server Features > Utilities > Completion").
 */
import type { StandardSchemaV1 } from '@modelcontextprotocol/client';
import { isRecord } from '../../core/json.js';
import type { RequestOptions } from '../session/request-options.js';
import type { Session } from '../session/session.js';

/** What to complete: one argument of a prompt, or one variable of a resource template. */
export interface MCPCompleteParams {
  /** `{ type: 'ref/prompt', name }` or `{ type: 'ref/resource', uri }` (the URI template). */
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  /** The argument's name and the value typed so far (may be empty). */
  argument: { name: string; value: string };
  /** Values of the other arguments already chosen, which may narrow the suggestions. */
  context?: { arguments?: Record<string, string> };
}

/** The server's suggestions: at most 100 `values`; `total` and `hasMore` when it knows there are more. */
export interface MCPCompletion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/**
 * Sends `completion/complete` on `session` and returns its `completion`, every value checked to be a string.
 * @throws MCPCallError (kind `jsonrpc` when the server has no completions capability; `protocol` when the
 *   result has no `completion.values` array of strings)
 */
export async function completeArgument(
  session: Session,
  params: MCPCompleteParams,
  options: RequestOptions,
): Promise<MCPCompletion> {
  const wire: Record<string, unknown> = { ...params };
  const result = await session.request('completion/complete', wire, completionSchema, options);
  return result.completion;
}

/** Checks the result the way result-checks.ts checks the others: only the fields read here. */
const completionSchema: StandardSchemaV1<unknown, { completion: MCPCompletion }> = {
  '~standard': {
    version: 1,
    vendor: 'agentwire',
    validate(value: unknown) {
      const completion = isRecord(value) ? value.completion : undefined;
      const values = isRecord(completion) ? completion.values : undefined;
      if (!Array.isArray(values) || values.some((item) => typeof item !== 'string')) {
        return { issues: [{ message: '"completion.values" is not an array of strings' }] };
      }
      return { value: value as { completion: MCPCompletion } };
    },
  },
};
