/**
 * A run's context (`RunOptions.context`) reaches every MCP request made on the run's behalf: two agents
 * running at once for two tenants through one `MCPServers` (one HTTP client, connected when needed by the
 * first call) each send their tenant's token, the connect the first call starts included.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { MCPClient, MCPServers } from '../../src/mcp/index.js';
import { anthropic } from '../../src/providers/index.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { HttpFixture, type JsonRpcLike, respondJson, textResult } from '../fixtures/http-server.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { messagesOf } from './helpers.js';

const WHOAMI = {
  name: 'whoami',
  inputSchema: { type: 'object', properties: { tenant: { type: 'string' } } },
};

describe('a run context', () => {
  const fake = useFakeModelServer(startFakeAnthropic);
  const cleanups: (() => unknown)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it("carries each concurrent run's tenant to its requests through one MCPServers, the connect included", async () => {
    const fixture = await HttpFixture.start();
    cleanups.push(() => fixture.close());
    fixture.onMethod('tools/list', (_req, res, message) =>
      respondJson(res, { jsonrpc: '2.0', id: message.id, result: { tools: [WHOAMI] } }),
    );
    fixture.onMethod('tools/call', (req, res, message) =>
      respondJson(res, {
        jsonrpc: '2.0',
        id: message.id,
        result: textResult(`${req.headers.authorization}`),
      }),
    );
    const client = MCPClient.fromUrl(fixture.url, {
      name: 'tenanted',
      transport: 'streamable-http',
      protocolVersion: '2025-11-25',
      headers: (context) => ({ authorization: `Bearer ${context.run?.tenant ?? 'none'}-token` }),
    });
    const servers = new MCPServers().add(client, {}, { toolList: [WHOAMI], deferLoading: false });
    cleanups.push(() => servers.disconnectAll());
    await servers.connectAll();
    // Each run's first request calls the tool for the tenant its prompt names; its second ends the run.
    const step = (body: Record<string, unknown>) => {
      const messages = messagesOf(body) as { content: unknown }[];
      const prompt = JSON.stringify(messages[0]?.content);
      const tenant = prompt.includes('tenant a') ? 'a' : 'b';
      if (messages.length > 1) return { text: `done ${tenant}` };
      return { toolCalls: [{ id: `call-${tenant}`, name: 'whoami', input: { tenant } }] };
    };
    fake.script(step, step, step, step);
    const model = () =>
      anthropic({ model: 'claude-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });
    const agentA = new Agent({ model: model() });
    const agentB = new Agent({ model: model() });
    agentA.addMcpServers(servers);
    agentB.addMcpServers(servers);
    const [a, b] = await Promise.all([
      agentA.execute('for tenant a', { context: { tenant: 'a' } }),
      agentB.execute('for tenant b', { context: { tenant: 'b' } }),
    ]);
    expect([a.text, b.text]).toEqual(['done a', 'done b']);
    const calls = fixture.requestsFor('POST', 'tools/call');
    const byTenant = calls
      .map((r) => [
        ((r.json as JsonRpcLike).params?.arguments as { tenant?: string } | undefined)?.tenant,
        r.headers.authorization,
      ])
      .sort();
    expect(byTenant).toEqual([
      ['a', 'Bearer a-token'],
      ['b', 'Bearer b-token'],
    ]);
    // The server was connected by the first call of either run, on that run's behalf.
    const initialize = fixture.requestsFor('POST', 'initialize').map((r) => r.headers.authorization);
    expect(initialize).toHaveLength(1);
    expect(['Bearer a-token', 'Bearer b-token']).toContain(initialize[0]);
    const discovery = fixture.requestsFor('POST', 'tools/list').map((r) => r.headers.authorization);
    expect(discovery).toEqual(initialize);
  });
});
