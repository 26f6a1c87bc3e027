/**
 * The gateway's test fleet: server-everything, server-filesystem and server-memory over stdio (from
 * node_modules) and the 2026-07-28-only fixture over Streamable HTTP, in one configuration file with
 * filters, and helpers to connect the bare SDK client (either negotiation mode) to a gateway.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type Era2026HttpServer, startEra2026Http } from '../fixtures/era2026/http-server.js';
import { EVERYTHING, FILESYSTEM, MEMORY, tempDir } from '../helpers.js';

export const TOKEN = 'gateway-test-token-0123456789';

/** A running fleet: its configuration file and the HTTP upstream. */
export interface Fleet {
  config: string;
  dir: string;
  modern: Era2026HttpServer;
  close(): Promise<void>;
}

/** Writes the configuration and starts the HTTP upstream. */
export async function startFleet(extra: Record<string, unknown> = {}): Promise<Fleet> {
  const modern = await startEra2026Http({ modernOnly: true, changes: true });
  const { dir, remove } = tempDir('agentwire-gateway-');
  const config = path.join(dir, 'servers.json');
  writeFileSync(path.join(dir, 'note.txt'), 'hello from the gateway\n');
  const node = process.execPath;
  writeFileSync(
    config,
    JSON.stringify({
      gateway: { bearerTokenEnv: 'GATEWAY_TOKEN', ...extra },
      mcpServers: {
        everything: {
          command: node,
          maxConcurrentCalls: 4,
          args: [EVERYTHING],
          blockTools: ['get-env', 'gzip-file-as-resource', 'toggle-*', 'simulate-research-query'],
        },
        fs: { command: node, args: [FILESYSTEM, dir], allowTools: ['read_text_file', 'list_directory'] },
        memory: { command: node, args: [MEMORY], prefix: 'mem', allowTools: ['read_graph'] },
        modern: {
          url: modern.url,
          allowTools: ['add', 'echo', 'progress', 'slow', 'confirm', 'change', 'extra'],
        },
      },
    }),
  );
  return {
    config,
    dir,
    modern,
    close: async () => {
      await modern.close();
      remove();
    },
  };
}

/** The gateway's tool list for {@link startFleet}'s configuration, in order. */
export const GATEWAY_TOOLS = [
  'everything__echo',
  'everything__get-annotated-message',
  'everything__get-resource-links',
  'everything__get-resource-reference',
  'everything__get-structured-content',
  'everything__get-sum',
  'everything__get-tiny-image',
  'everything__trigger-long-running-operation',
  'everything__trigger-elicitation-request',
  'everything__trigger-sampling-request',
  'fs__read_text_file',
  'fs__list_directory',
  'mem__read_graph',
  'modern__add',
  'modern__echo',
  'modern__progress',
  'modern__slow',
  'modern__confirm',
  'modern__change',
];

/** A bare SDK client over Streamable HTTP with the token, negotiating in `mode`, that answers elicitations. */
export async function sdkHttpClient(url: string, mode: 'auto' | 'legacy', token = TOKEN): Promise<Client> {
  const client = new Client(
    { name: 'gateway-test', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } },
  );
  client.setRequestHandler('elicitation/create', async (request) => ({
    action: 'accept',
    content: {
      name: 'Ada',
      check: true,
      confirm: true,
      ...(request.params.message === '' && { none: true }),
    },
  }));
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}
