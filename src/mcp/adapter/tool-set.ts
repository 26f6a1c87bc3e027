/**
 * The client's current tools, refreshed in place: a tool whose definition is unchanged keeps its instance
 * (`===`) across refreshes and reconnects, so agents holding it keep working: only new or modified tools
 * become new instances (refreshes follow `notifications/tools/list_changed`, MCP spec 2025-11-25, "Tools >
 * List Changed Notification").
 */
import { isDeepStrictEqual } from 'node:util';
import type { MCPToolDefinition } from '../protocol/types.js';
import { MCPTool, type MCPToolHost } from './mcp-tool.js';

/** What a refresh changed. */
export interface ToolSetDiff {
  tools: MCPTool[];
  added: MCPTool[];
  removed: MCPTool[];
  changed: MCPTool[];
}

/** The client's tools by name, in the server's order, with instance identity kept across refreshes. */
export class ToolSet {
  #byName = new Map<string, MCPTool>();
  readonly #host: MCPToolHost;

  constructor(host: MCPToolHost) {
    this.#host = host;
  }

  /** The tools in the server's order. */
  list(): MCPTool[] {
    return [...this.#byName.values()];
  }

  get(name: string): MCPTool | undefined {
    return this.#byName.get(name);
  }

  /** Forgets every tool. */
  clear(): void {
    this.#byName = new Map();
  }

  /**
   * Replaces the set with `definitions`, reusing instances whose definition is deeply equal. A name listed
   * twice keeps its first definition (a server bug; the model could not tell the two apart anyway).
   */
  replace(definitions: readonly MCPToolDefinition[]): ToolSetDiff & { duplicates: string[] } {
    const previous = this.#byName;
    const next = new Map<string, MCPTool>();
    const added: MCPTool[] = [];
    const changed: MCPTool[] = [];
    const duplicates: string[] = [];
    for (const definition of definitions) {
      if (next.has(definition.name)) {
        duplicates.push(definition.name);
        continue;
      }
      const old = previous.get(definition.name);
      if (old && isDeepStrictEqual(old.definition, definition)) {
        next.set(definition.name, old);
        continue;
      }
      const tool = new MCPTool(definition, this.#host);
      next.set(definition.name, tool);
      (old ? changed : added).push(tool);
    }
    const removed = [...previous.values()].filter((tool) => !next.has(tool.name));
    this.#byName = next;
    return { tools: [...next.values()], added, removed, changed, duplicates };
  }
}
