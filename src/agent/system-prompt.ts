/**
 * The system prompt of a turn: the user's own first, then each attached MCP server's `instructions` (MCP
 * spec 2025-11-25, "Lifecycle > Initialization": "instructions describing how to use the server and its
 * features", which hosts may add to the system prompt), each named after its server and bounded.
 */
import { fitText } from './result-budget.js';

/** Default {@link AgentOptions.maxServerInstructionsBytes}: 8 192 bytes of UTF-8 per server. */
export const DEFAULT_MAX_SERVER_INSTRUCTIONS_BYTES = 8_192;

/**
 * `system` followed by one section per server:
 * `Instructions from MCP server "<name>":\n<text>`, sections separated by blank lines. A server's text over
 * `maxBytes` keeps its start and end with a notice between. `undefined` when there is nothing at all.
 */
export function systemPrompt(
  system: string | undefined,
  instructions: readonly (readonly [string, string])[],
  maxBytes: number,
): string | undefined {
  const sections = instructions.map(
    ([server, text]) =>
      `Instructions from MCP server "${server}":\n${fitText(text, maxBytes, 'The server sent more instructions than the agent passes on.')}`,
  );
  const parts = [...(system ? [system] : []), ...sections];
  return parts.length === 0 ? undefined : parts.join('\n\n');
}
