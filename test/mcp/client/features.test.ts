import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient, type MCPClientOptions } from '../../../src/mcp/client/client.js';
import type { CreateMessageParams, ElicitParams, ServerLogMessage } from '../../../src/mcp/protocol/types.js';
import { applyElicitationDefaults } from '../../../src/mcp/session/engine/server-requests.js';
import { everythingStdio, waitUntil } from '../../helpers.js';

const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

async function everything(options: MCPClientOptions = {}): Promise<MCPClient> {
  const client = MCPClient.fromStdio(everythingStdio(), options);
  open.push(client);
  await client.connect();
  return client;
}

const textOf = (result: { content: unknown[] }) =>
  (result.content as { text?: string }[]).map((b) => b.text).join('\n');

describe('server-initiated requests', () => {
  it('declares no client capabilities without handlers, so server-everything offers none of those tools', async () => {
    const client = await everything();
    const names = client.getTools().map((t) => t.name);
    expect(names).not.toContain('trigger-sampling-request');
    expect(names).not.toContain('trigger-elicitation-request');
    expect(names).not.toContain('get-roots-list');
  });

  it('routes sampling/createMessage to onSampling and returns its answer to the server', async () => {
    const seen: CreateMessageParams[] = [];
    const client = await everything({
      onSampling: async (params) => {
        seen.push(params);
        return {
          role: 'assistant',
          content: { type: 'text', text: 'sampled reply' },
          model: 'fake-model',
          stopReason: 'endTurn',
        };
      },
    });
    await waitUntil(
      () => client.getTools().some((t) => t.name === 'trigger-sampling-request'),
      5000,
      'sampling tool',
    );
    const result = await client.callTool('trigger-sampling-request', { prompt: 'say hi', maxTokens: 50 });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.maxTokens).toBe(50);
    expect(seen[0]!.systemPrompt).toBe('You are a helpful test server.');
    expect(seen[0]!.messages[0]!.content).toEqual({
      type: 'text',
      text: 'Resource trigger-sampling-request context: say hi',
    });
    const reply = JSON.parse(textOf(result).replace(/^LLM sampling result: \n/, ''));
    expect(reply).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'sampled reply' },
      model: 'fake-model',
      stopReason: 'endTurn',
    });
  });

  it('routes elicitation/create to onElicitation and fills schema defaults the user left out', async () => {
    const seen: ElicitParams[] = [];
    const client = await everything({
      onElicitation: async (params) => {
        seen.push(params);
        return { action: 'accept', content: { name: 'Ada Lovelace', check: true } };
      },
    });
    await waitUntil(
      () => client.getTools().some((t) => t.name === 'trigger-elicitation-request'),
      5000,
      'elicitation tool',
    );
    const result = await client.callTool('trigger-elicitation-request', {});
    expect(seen[0]!.message).toBe('Please provide inputs for the following fields:');
    const text = textOf(result);
    expect(text).toContain('- Name: Ada Lovelace\n- Agreed to terms: true');
    expect(text).toContain('- Favorite Integer: 42\n- Favorite Number: 3.14');
  });

  it('answers roots/list with the configured roots and announces changes', async () => {
    const client = await everything({ roots: [{ uri: 'file:///srv/project', name: 'project' }] });
    await waitUntil(() => client.getTools().some((t) => t.name === 'get-roots-list'), 5000, 'roots tool');
    const first = textOf(await client.callTool('get-roots-list', {}));
    expect(first).toContain('file:///srv/project');
    await client.setRoots([{ uri: 'file:///srv/other', name: 'other' }]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = textOf(await client.callTool('get-roots-list', {}));
    expect(second).toContain('file:///srv/other');
    expect(second).not.toContain('file:///srv/project');
  });
});

describe('applyElicitationDefaults', () => {
  const params: ElicitParams = {
    message: 'm',
    requestedSchema: {
      type: 'object',
      properties: {
        a: { type: 'string', default: 'x' },
        b: { type: 'number', default: 2 },
        c: { type: 'string' },
      },
    },
  };
  it('fills only missing fields of an accepted form', () => {
    expect(applyElicitationDefaults(params, { action: 'accept', content: { a: 'mine' } })).toEqual({
      action: 'accept',
      content: { a: 'mine', b: 2 },
    });
  });
  it('leaves declined and cancelled answers alone', () => {
    expect(applyElicitationDefaults(params, { action: 'decline' })).toEqual({ action: 'decline' });
  });
});

describe('resources, prompts and logging on server-everything', () => {
  it('lists resources through every page and reads one', async () => {
    const client = await everything();
    const resources = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const first = resources[0]!;
    const read = await client.readResource(first.uri);
    expect(read.contents[0]!.uri).toBe(first.uri);
  });

  it('lists resource templates', async () => {
    const client = await everything();
    const templates = await client.listResourceTemplates();
    expect(templates.map((t) => t.uriTemplate)).toContain('demo://resource/dynamic/text/{resourceId}');
  });

  it('lists prompts and gets one with arguments', async () => {
    const client = await everything();
    const prompts = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain('simple-prompt');
    const prompt = await client.getPrompt('simple-prompt');
    expect(prompt.messages[0]!.role).toBe('user');
    expect(prompt.messages[0]!.content.type).toBe('text');
  });

  it('subscribes to a resource', async () => {
    const client = await everything();
    await expect(client.subscribeResource('demo://resource/dynamic/text/1')).resolves.toBeUndefined();
    await expect(client.unsubscribeResource('demo://resource/dynamic/text/1')).resolves.toBeUndefined();
  });

  it('delivers the server log messages at the requested level', async () => {
    const logs: ServerLogMessage[] = [];
    const client = await everything({ logLevel: 'debug' });
    client.on('serverLog', (entry) => logs.push(entry));
    await client.callTool('toggle-simulated-logging', {});
    await waitUntil(() => logs.length > 0, 8000, 'a server log message');
    await client.callTool('toggle-simulated-logging', {});
    expect(logs[0]).toMatchObject({ server: 'server-everything' });
    expect(typeof logs[0]!.level).toBe('string');
  });

  it('pings', async () => {
    const client = await everything();
    await expect(client.ping()).resolves.toBeUndefined();
  });
});
