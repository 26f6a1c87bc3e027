import type { AgentEvent } from '../../src/agent/index.js';
import type { Tool, ToolContext } from '../../src/core/tool.js';

/** A small in-test tool. */
export function localTool(
  name: string,
  run: (input: Record<string, unknown>, context: ToolContext) => Promise<unknown> | unknown,
  inputSchema: Tool['inputSchema'] = { type: 'object', properties: {} },
  source?: string,
): Tool {
  return {
    name,
    description: `test tool ${name}`,
    inputSchema,
    ...(source === undefined ? {} : { source }),
    execute: async (input, context = {}) => run(input, context),
  };
}

/** Collects a run's events; resolves with them and the error the stream ended with, if any. */
export async function collectEvents(
  events: AsyncIterable<AgentEvent>,
): Promise<{ events: AgentEvent[]; error?: unknown }> {
  const out: AgentEvent[] = [];
  try {
    for await (const event of events) out.push(event);
    return { events: out };
  } catch (error) {
    return { events: out, error };
  }
}

/** The Anthropic request body's messages, for assertions. */
export function messagesOf(body: Record<string, unknown> | undefined): unknown[] {
  const messages = body?.messages;
  return Array.isArray(messages) ? messages : [];
}

/** The tool names offered in a recorded request body (Anthropic `tools[].name`). */
export function offeredToolNames(body: Record<string, unknown> | undefined): string[] {
  const tools = body?.tools;
  return Array.isArray(tools) ? tools.map((t: { name: string }) => t.name) : [];
}
