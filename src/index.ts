/** agentwire's public API. */

export * from './agent/index.js';
export type { JsonObject, JsonSchema, JsonValue } from './core/json.js';
export type { Tool, ToolContext, ToolProgress } from './core/tool.js';
export { VERSION } from './core/version.js';
export * from './mcp/index.js';
export * from './providers/index.js';
export * from './tools/index.js';
