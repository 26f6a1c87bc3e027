/**
 * The `x-mcp-header` declarations of a 2026-era Streamable HTTP connection's tools (MCP spec 2026-07-28,
 * "Transports > Streamable HTTP > Custom Headers from Tool Parameters"): scanned when the tools are listed,
 * a tool with an invalid declaration left out of the list with a warning ("Client Behavior": clients MUST
 * exclude it, SHOULD log a warning naming the tool and the reason), and the `Mcp-Param-{Name}` headers of
 * each `tools/call` built from the declarations of the last listing.
 */
import {
  type McpHeaderDeclaration,
  mcpParamHeaders,
  scanMcpHeaderDeclarations,
} from '../protocol/mcp-headers.js';
import type { MCPToolDefinition } from '../protocol/types.js';

/** A tool left out of the list, and why. */
export interface ExcludedTool {
  name: string;
  reason: string;
}

/** The header declarations of one connection's tools. */
export class ToolHeaders {
  /** Declarations by tool name, of the tools that have any; replaced by each listing. */
  #declarations = new Map<string, readonly McpHeaderDeclaration[]>();
  readonly #onExcluded: (tool: ExcludedTool) => void;

  /** @param onExcluded - Told of each tool left out of a listing (for the client's warning). */
  constructor(onExcluded: (tool: ExcludedTool) => void) {
    this.#onExcluded = onExcluded;
  }

  /**
   * Scans each tool's `inputSchema` and keeps the declarations of the valid ones.
   * @returns the tools whose declarations are valid (or absent), in order; the others go to `onExcluded`.
   */
  accept(tools: readonly MCPToolDefinition[]): MCPToolDefinition[] {
    const declarations = new Map<string, readonly McpHeaderDeclaration[]>();
    const kept: MCPToolDefinition[] = [];
    for (const tool of tools) {
      const scan = scanMcpHeaderDeclarations(tool.inputSchema);
      if (!scan.valid) {
        this.#onExcluded({ name: tool.name, reason: scan.reason });
        continue;
      }
      kept.push(tool);
      // The first tool of a name wins, as in the client's tool set.
      if (scan.declarations.length > 0 && !declarations.has(tool.name))
        declarations.set(tool.name, scan.declarations);
    }
    this.#declarations = declarations;
    return kept;
  }

  /** The `Mcp-Param-*` headers of a call to `name` with `args`; `undefined` when it declares none. */
  headersFor(name: string, args: Readonly<Record<string, unknown>>): Record<string, string> | undefined {
    const declarations = this.#declarations.get(name);
    if (declarations === undefined) return undefined;
    const headers = mcpParamHeaders(declarations, args);
    return Object.keys(headers).length === 0 ? undefined : headers;
  }
}
