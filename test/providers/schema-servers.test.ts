/**
 * The normaliser on the real, nested input schemas of the public servers (server-everything,
 * server-filesystem, server-memory, started from node_modules): each vendor's rules hold at every depth,
 * and one nested schema reaches each vendor's wire exactly as expected.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { isRecord, type JsonSchema } from '../../src/core/json.js';
import { MCPClient, type MCPTool } from '../../src/mcp/index.js';
import { anthropic, openai } from '../../src/providers/index.js';
import { normalizeSchema, type SchemaDialect } from '../../src/providers/schema.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { startFakeOpenAI } from '../fixtures/fake-openai.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { EVERYTHING, FILESYSTEM, MEMORY, tempDir } from '../helpers.js';

const workspace = tempDir('agentwire-schemas-');
const clients = [
  MCPClient.fromStdio({ command: process.execPath, args: [EVERYTHING] }, { name: 'everything' }),
  MCPClient.fromStdio({ command: process.execPath, args: [FILESYSTEM, workspace.dir] }, { name: 'fs' }),
  MCPClient.fromStdio({ command: process.execPath, args: [MEMORY] }, { name: 'memory' }),
];
let tools: MCPTool[] = [];

beforeAll(async () => {
  await Promise.all(clients.map((c) => c.connect()));
  tools = (await Promise.all(clients.map((c) => c.getTools()))).flat();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.disconnect()));
  workspace.remove();
});

/** Every subschema of `schema` with its JSON Pointer (properties, items, unions: what these servers use). */
function subschemas(schema: unknown, at = '#'): [string, Record<string, unknown>][] {
  if (!isRecord(schema)) return [];
  const found: [string, Record<string, unknown>][] = [[at, schema]];
  if (isRecord(schema.properties)) {
    for (const [name, sub] of Object.entries(schema.properties)) {
      found.push(...subschemas(sub, `${at}/properties/${name}`));
    }
  }
  if (isRecord(schema.items)) found.push(...subschemas(schema.items, `${at}/items`));
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems']) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (const [i, sub] of list.entries()) found.push(...subschemas(sub, `${at}/${key}/${i}`));
  }
  return found;
}

/** What a vendor refuses in a subschema, as `<pointer>: <rule>`. */
function violations(schema: JsonSchema, dialect: SchemaDialect): string[] {
  const problems: string[] = [];
  if (schema.type !== 'object') problems.push('#: root is not an object');
  for (const [at, node] of subschemas(schema)) {
    for (const key of ['$schema', '$ref', '$defs', 'definitions', 'additionalItems']) {
      if (key in node) problems.push(`${at}: ${key}`);
    }
    if (Array.isArray(node.items)) problems.push(`${at}: items is a list`);
    for (const key of ['exclusiveMinimum', 'exclusiveMaximum']) {
      if (typeof node[key] === 'boolean') problems.push(`${at}: boolean ${key}`);
    }
    if (dialect === 'openai' && 'oneOf' in node) problems.push(`${at}: oneOf`);
    if (dialect === 'openai' && node.type === 'array' && node.items === undefined) {
      problems.push(`${at}: array schema missing items`);
    }
  }
  return problems;
}

describe('the public servers’ schemas', () => {
  it('lists the 36 tools of the three servers, nested ones among them', () => {
    expect(tools.length).toBe(36);
    const nested = tools.filter((t) =>
      subschemas(t.inputSchema).some(([at]) => at.includes('/items/properties/')),
    );
    expect(nested.map((t) => `${t.source}/${t.name}`).sort()).toEqual([
      'fs/edit_file',
      'memory/add_observations',
      'memory/create_entities',
      'memory/create_relations',
      'memory/delete_observations',
      'memory/delete_relations',
    ]);
  });

  it.each(['anthropic', 'openai'] as const)('normalise to what %s accepts, at every depth', (dialect) => {
    const problems = tools.flatMap((t) =>
      violations(normalizeSchema(t.inputSchema, dialect), dialect).map((p) => `${t.name} ${p}`),
    );
    expect(problems).toEqual([]);
  });

  it("turns server-memory's create_entities into exactly this for both vendors", () => {
    const tool = tools.find((t) => t.source === 'memory' && t.name === 'create_entities');
    const expected = {
      type: 'object',
      properties: {
        entities: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              name: { type: 'string', description: 'The name of the entity' },
              entityType: { type: 'string', description: 'The type of the entity' },
              observations: {
                type: 'array',
                items: { type: 'string' },
                description: 'An array of observation contents associated with the entity',
              },
            },
            required: ['name', 'entityType', 'observations'],
          },
        },
      },
      required: ['entities'],
    };
    expect(tool?.inputSchema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(normalizeSchema(tool?.inputSchema ?? {}, 'anthropic')).toEqual(expected);
    expect(normalizeSchema(tool?.inputSchema ?? {}, 'openai')).toEqual(expected);
  });
});

describe('a nested schema on the wire', () => {
  const claude = useFakeModelServer(startFakeAnthropic);
  const gpt = useFakeModelServer(startFakeOpenAI);

  it('reaches both vendors as the normalised schema', async () => {
    const memory = tools.filter((t) => t.source === 'memory' && t.name === 'create_relations');
    const normalised = normalizeSchema(memory[0]?.inputSchema ?? {}, 'openai');
    claude.script({ text: 'ok' });
    gpt.script({ text: 'ok' });
    const models = [
      anthropic({ model: 'claude-test', apiKey: 'k', baseURL: claude.baseURL, maxRetries: 0 }),
      openai({ model: 'gpt-test', apiKey: 'k', baseURL: gpt.baseURL, maxRetries: 0 }),
    ];
    for (const model of models) await new Agent({ model, tools: memory }).execute('relate them');
    const description = memory[0]?.description;
    expect(claude.requests[0]?.tools).toEqual([
      { name: 'create_relations', description, input_schema: normalised },
    ]);
    expect(gpt.requests[0]?.tools).toEqual([
      { type: 'function', function: { name: 'create_relations', description, parameters: normalised } },
    ]);
    expect(normalised).toEqual({
      type: 'object',
      properties: {
        relations: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              from: { type: 'string', description: 'The name of the entity where the relation starts' },
              to: { type: 'string', description: 'The name of the entity where the relation ends' },
              relationType: { type: 'string', description: 'The type of the relation' },
            },
            required: ['from', 'to', 'relationType'],
          },
        },
      },
      required: ['relations'],
    });
  });
});
