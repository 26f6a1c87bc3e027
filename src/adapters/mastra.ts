/**
 * `agentwire/mastra`: the tools of an `MCPClient` or `MCPServers` for a Mastra (`@mastra/core` 1.71) agent:
 * `new Agent({ tools: createMastraTools(client).tools })`. Mastra runs AI SDK tools as its own, so these are
 * the tools of `agentwire/ai-sdk` (the `ai` package is needed too), and everything said there holds: the
 * full JSON Schema, `isError: true` as a failed tool call, images and audio as `file` parts, the abort
 * signal of `agent.generate(prompt, { abortSignal })` reaching the MCP request (`notifications/cancelled`,
 * MCP spec 2025-11-25, "Utilities > Cancellation").
 *
 * `tools` is a function, which Mastra calls for every `generate()` / `stream()`: each run gets the tools
 * as they are then, so `toolsChanged` is reflected from the next run on.
 */
import type { ToolsInput } from '@mastra/core/agent';
import { createAISDKTools } from './ai-sdk.js';
import type { AdapterOptions, AdapterSource } from './source.js';

export type { AdapterOptions, AdapterSource } from './source.js';

/** What {@link createMastraTools} returns. */
export interface MastraTools {
  /** For `new Agent({ tools })`: the source's tools as they are when Mastra asks. */
  readonly tools: () => ToolsInput;
  /** Stops following the source's tool changes. Idempotent. */
  close(): void;
}

/** The source's tools for a Mastra agent (see the module header). Connect the source first. */
export function createMastraTools(source: AdapterSource, options: AdapterOptions = {}): MastraTools {
  const live = createAISDKTools(source, options);
  // A copy per run: a run keeps the tools it started with while the live set follows the server.
  return { tools: () => ({ ...live.tools }) as ToolsInput, close: live.close };
}
