import { afterEach, describe, expect, it } from 'vitest';
import { outputSchemaMismatch } from '../../../src/mcp/adapter/output-schema.js';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { MCPToolError } from '../../../src/mcp/protocol/errors.js';
import { everythingStdio, scripted } from '../../helpers.js';

const weather = {
  type: 'object',
  properties: { temperature: { type: 'number' } },
  required: ['temperature'],
  additionalProperties: false,
};

describe('outputSchemaMismatch', () => {
  it('accepts conforming structured content', () => {
    expect(
      outputSchemaMismatch(weather, { content: [], structuredContent: { temperature: 3 } }),
    ).toBeUndefined();
  });
  it('names the mismatch', () => {
    expect(outputSchemaMismatch(weather, { content: [], structuredContent: { temperature: 'hot' } })).toBe(
      "structuredContent does not match the tool's outputSchema: data/temperature must be number",
    );
  });
  it('requires structured content when a schema is declared', () => {
    expect(outputSchemaMismatch(weather, { content: [{ type: 'text', text: 'x' }] })).toBe(
      'the tool declares an outputSchema but returned no structuredContent',
    );
  });
  it('does not validate error results or tools without a schema', () => {
    expect(outputSchemaMismatch(weather, { content: [], isError: true })).toBeUndefined();
    expect(outputSchemaMismatch(undefined, { content: [], structuredContent: { a: 1 } })).toBeUndefined();
  });
});

const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

describe('output schemas through MCPClient', () => {
  const tools = [{ name: 'structured', inputSchema: { type: 'object' }, outputSchema: weather }];

  it('reports a non-conforming result as a tool error from execute, leaving callTool raw', async () => {
    const client = MCPClient.fromStdio(scripted({ FIXTURE_TOOLS: JSON.stringify(tools) }));
    open.push(client);
    await client.connect();
    const raw = await client.callTool('structured', { value: { temperature: 'hot' } });
    expect(raw).toEqual({
      content: [{ type: 'text', text: '{"temperature":"hot"}' }],
      structuredContent: { temperature: 'hot' },
    });
    const error = (await client
      .getTools()[0]!
      .execute({ value: { temperature: 'hot' } })
      .catch((e) => e)) as MCPToolError;
    expect(error).toBeInstanceOf(MCPToolError);
    expect(error.message).toBe(
      `Tool "structured" on MCP server "scripted-server" failed: structuredContent does not match the tool's outputSchema: data/temperature must be number`,
    );
    expect(error.result).toEqual(raw);
    expect(await client.getTools()[0]!.execute({ value: { temperature: 21 } })).toBe('{"temperature":21}');
  });

  it('validates server-everything get-structured-content against its declared schema', async () => {
    const client = MCPClient.fromStdio(everythingStdio());
    open.push(client);
    await client.connect();
    const tool = client.getTools().find((t) => t.name === 'get-structured-content')!;
    expect(tool.definition.outputSchema).toBeDefined();
    expect(await tool.execute({ location: 'Chicago' })).toMatch(
      /^\{"temperature":-?\d+,"conditions":"[^"]+","humidity":\d+\}$/,
    );
  });
});
