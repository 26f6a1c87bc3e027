/**
 * Server prefixes on tool names (`github__create_issue`): the one rule for building them, and the tool that
 * carries one.
 *
 * Two layers may prefix: `MCPServers.getTools({ prefix: true })`, for callers that hand tools to any agent
 * framework, and agentwire's own agent (its `toolNamePrefix` policy, `addMcpServer(client, { prefix })`).
 * Both build names with `prefixedToolName`, so a server's tool gets the same name whichever layer
 * names it. And a name is prefixed at most once: a tool that already carries its server prefix says so in
 * its `namePrefix` (an {@link MCPPrefixedTool}, or a copy of one), and the agent takes it under its name as
 * it is, whatever its policy or the handle's prefix say; only tools without one are prefixed there. Tool names are data from the server:
 * nothing is ever parsed out of a name to guess whether it was prefixed.
 */
import type { JsonSchema } from '../../core/json.js';
import type { Tool, ToolContext } from '../../core/tool.js';
import type { MCPTool } from '../adapter/mcp-tool.js';
import type { MCPLazyTool } from './lazy-tool.js';

/** Default separator between server and tool names: `github__create_issue`. */
export const DEFAULT_PREFIX_SEPARATOR = '__';

/**
 * A server's name as a prefix: characters outside `[A-Za-z0-9_-]` become `_` (`my.server` → `my_server`),
 * so a prefixed name stays within what model APIs accept (Anthropic and OpenAI: `^[a-zA-Z0-9_-]{1,64}$`)
 * when the tool's own name does.
 */
export function serverPrefix(server: string): string {
  return server.replace(/[^A-Za-z0-9_-]/g, '_');
}

/**
 * `<server prefix><separator><tool>`: the prefixed name of tool `tool` of server `server`. The tool's own
 * name is kept as it is (the agent maps the whole name to a provider-valid one afterwards).
 * @param separator default `'__'`.
 */
export function prefixedToolName(
  server: string,
  tool: string,
  separator: string = DEFAULT_PREFIX_SEPARATOR,
): string {
  return `${serverPrefix(server)}${separator}${tool}`;
}

/**
 * A server's tool under its prefixed name; calls go to the server's tool unchanged. Its `namePrefix` says
 * that the name carries its server prefix: the agent never prefixes it again (see the file header).
 */
export class MCPPrefixedTool implements Tool {
  /** `<server><separator><tool>` (`prefixedToolName`). */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** The server's name. */
  readonly source: string;
  /** The server's tool, which does the work (an `MCPLazyTool` for a server connected when needed). */
  readonly tool: MCPTool | MCPLazyTool;
  /** The server prefix `name` carries (`serverPrefix` of the server's name). */
  readonly namePrefix: string;

  constructor(name: string, tool: MCPTool | MCPLazyTool, namePrefix: string) {
    this.name = name;
    this.namePrefix = namePrefix;
    this.tool = tool;
    this.description = tool.description;
    this.inputSchema = tool.inputSchema;
    this.source = tool.source;
  }

  /** Same as `tool.execute`: rendered result; throws MCPToolError / MCPCallError. */
  execute(input: Record<string, unknown>, context?: ToolContext): Promise<unknown> {
    return this.tool.execute(input, context);
  }
}

/** Whether `tool`'s name already carries its server prefix (it has a `namePrefix`). */
export function carriesServerPrefix(tool: Tool): boolean {
  return typeof tool.namePrefix === 'string';
}
