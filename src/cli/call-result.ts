/** The parts of `agentwire call` that need the MCP layer: finding the tool, and printing its result. */
import {
  type CallToolResult,
  type MCPClient,
  type MCPToolDefinition,
  renderCallToolResult,
} from '../mcp/index.js';
import { exposedTools } from './config-targets.js';
import type { ServerTarget } from './server-options.js';
import { UsageError } from './usage-error.js';

/**
 * The definition of tool `name` of the client, as the target exposes it.
 * @throws UsageError naming the tools available, and saying so when the config filters `name` out.
 */
export function requireTool(client: MCPClient, target: ServerTarget, name: string): MCPToolDefinition {
  const tools = exposedTools(client, target);
  const found = tools.find((tool) => tool.name === name);
  if (found) return found.definition;
  const available =
    tools.length === 0 ? 'it has no tools' : `available: ${tools.map((t) => t.name).join(', ')}`;
  // A tool the config filters out is refused by name, so the user looks at the file, not the server.
  const hidden = client.getTools().some((tool) => tool.name === name);
  const problem = hidden
    ? `tool "${name}" of server "${client.name}" is left out by its allowTools/blockTools in the config`
    : `server "${client.name}" has no tool "${name}"`;
  throw new UsageError(`${problem} (${available})`);
}

/** The rendered result, newline-terminated; an object (structured content) as indented JSON. */
export function renderForTerminal(result: CallToolResult): string {
  const value = renderCallToolResult(result);
  const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  return text.endsWith('\n') ? text : `${text}\n`;
}
