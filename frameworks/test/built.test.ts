/**
 * The built adapters (dist/adapters/, what `agentwire/ai-sdk`, `agentwire/mastra` and
 * `agentwire/openai-agents` load) with the frameworks installed beside them, as in a user's project: each
 * module loads, gives the servers' tools in its framework's shape and calls them. `npm run test:frameworks`
 * builds first. The modules are imported by a computed path, so that the type-check does not need a build.
 */
import path from 'node:path';
import { asSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { sumTool } from '../../test/adapters/harness.js';
import { useAdapterServers } from '../../test/adapters/servers.js';
import { ROOT } from '../../test/helpers.js';

/** The built module of `agentwire/<name>`. */
const built = (name: string) => import(path.join(ROOT, 'dist', 'adapters', `${name}.js`));

describe('the built adapters, with the frameworks installed', () => {
  const env = useAdapterServers();
  /** `get-sum`'s answer to 2 + 40, as the server's text block. */
  const sumText = async () => {
    const result = await env.servers.get('everything')!.callTool('get-sum', { a: 2, b: 40 });
    return result.content.find((block) => block.type === 'text') as { type: 'text'; text: string };
  };

  it('agentwire/ai-sdk gives AI SDK dynamic tools with the whole schema, and calls them', async () => {
    const { createAISDKTools } = await built('ai-sdk');
    const { tools, close } = createAISDKTools(env.servers);
    close();
    const sum = tools['everything__get-sum'];
    expect(sum.type).toBe('dynamic');
    expect(await asSchema(sum.inputSchema).jsonSchema).toEqual(sumTool(env).inputSchema);
    const result = await sum.execute({ a: 2, b: 40 }, { toolCallId: 'call_1', messages: [] });
    expect(result.text).toBe((await sumText()).text);
  });

  it('agentwire/mastra gives each run the AI SDK tools', async () => {
    const { createMastraTools } = await built('mastra');
    const { tools, close } = createMastraTools(env.servers);
    close();
    expect(tools()['everything__get-sum'].type).toBe('dynamic');
  });

  it('agentwire/openai-agents gives an MCPServer that lists and calls the tools', async () => {
    const { agentwireMCPServer } = await built('openai-agents');
    const server = agentwireMCPServer(env.servers);
    const listed = await server.listTools();
    expect(listed.find((tool: { name: string }) => tool.name === 'everything__get-sum')).toEqual({
      name: 'everything__get-sum',
      description: sumTool(env).description,
      inputSchema: sumTool(env).inputSchema,
    });
    expect(await server.callTool('everything__get-sum', { a: 2, b: 40 })).toEqual([await sumText()]);
  });
});
