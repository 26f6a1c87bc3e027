// One adapter per MCP client under test, all behind the same small shape, so every workload treats them
// alike:
//   adapter.stdio({ command, args, env? }) / adapter.http(url)  ->  Promise<Connection>
//   Connection: { call(name, args) -> Promise<unknown>, toolCount: number, close() -> Promise<void>, raw }
// Each adapter uses its library the way its README shows (AI SDK and LangChain through their tool objects,
// as an agent would), with default options apart from quieting stderr. `floor` is no library at all: a bare
// line reader over the pipe, a bare fetch over HTTP.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { request as undiciRequest } from 'undici';
import { smallEnv } from './servers.mjs';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * The npm projects whose node_modules hold the peers: the repository's, then frameworks/ (the frameworks that
 * need Node 22, OpenAI Agents JS among them: `npm ci --prefix frameworks` installs them).
 */
const PEER_PROJECTS = [ROOT, path.join(ROOT, 'frameworks')];

/** The project of PEER_PROJECTS where `pkg` is installed, and its version; undefined when none has it. */
function installed(pkg) {
  for (const project of PEER_PROJECTS) {
    try {
      const manifest = path.join(project, 'node_modules', pkg, 'package.json');
      return { project, version: JSON.parse(readFileSync(manifest, 'utf8')).version };
    } catch {
      // not in this project
    }
  }
  return undefined;
}

/** The installed version of a package, read from its package.json under the projects' node_modules. */
export function versionOf(pkg) {
  if (pkg === 'agentwire') return JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version;
  return installed(pkg)?.version ?? 'not installed';
}

/** `pkg` as the project that has it installed loads it (frameworks/ is not on the repository's lookup path). */
function loadPeer(pkg) {
  const where = installed(pkg);
  if (where === undefined) throw new Error(`${pkg} is not installed`);
  return createRequire(path.join(where.project, 'package.json'))(pkg);
}

const INIT_PARAMS = {
  protocolVersion: '2025-06-18',
  capabilities: {},
  clientInfo: { name: 'bench-floor', version: '1.0.0' },
};

/**
 * The physical floor over a pipe: spawn, write a line, split lines, JSON.parse; nothing else. The server
 * gets a minimal environment, as the floor of process start too.
 */
async function floorStdio({ command, args = [], env }) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'], env: env ?? smallEnv() });
  const waiting = new Map();
  let nextId = 1;
  let pending = [];
  child.stdout.on('data', (chunk) => {
    let start = 0;
    let nl = chunk.indexOf(10);
    while (nl !== -1) {
      const line = chunk.subarray(start, nl);
      const message = JSON.parse(
        pending.length === 0 ? line.toString('utf8') : Buffer.concat([...pending, line]).toString('utf8'),
      );
      pending = [];
      const w = waiting.get(message.id);
      if (w) {
        waiting.delete(message.id);
        w(message);
      }
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
  // Writes of one tick leave in one syscall (cork until the next tick), as any careful writer would.
  let corked = false;
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      if (!corked) {
        corked = true;
        child.stdin.cork();
        process.nextTick(() => {
          corked = false;
          child.stdin.uncork();
        });
      }
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  await request('initialize', INIT_PARAMS);
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  const list = await request('tools/list', {});
  return {
    toolCount: list.result.tools.length,
    call: async (name, input) => (await request('tools/call', { name, arguments: input })).result,
    list: async () => (await request('tools/list', {})).result,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
        setTimeout(() => child.kill('SIGKILL'), 2_000).unref();
      }),
    raw: child,
  };
}

/** The physical floor over loopback HTTP: one fetch per request, JSON in and out. */
async function floorHttp(url) {
  let session;
  let nextId = 1;
  const post = async (body) => {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    };
    if (session) headers['mcp-session-id'] = session;
    // undici's request(): the leanest HTTP client Node has (fetch is undici plus web streams; node:http
    // measured slower, bench/PROFILE.md section 7), so the floor stays a floor.
    const res = await undiciRequest(url, { method: 'POST', headers, body: JSON.stringify(body) });
    session ??= res.headers['mcp-session-id'] ?? undefined;
    if (res.statusCode === 202) {
      await res.body.dump();
      return undefined;
    }
    const type = res.headers['content-type'] ?? '';
    const text = await res.body.text();
    if (type.includes('text/event-stream')) {
      // server-everything frames its answers as SSE: take the last data line carrying our response.
      const data = text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => JSON.parse(l.slice(5)));
      return data.find((m) => m.id === body.id);
    }
    return JSON.parse(text);
  };
  const request = (method, params) => post({ jsonrpc: '2.0', id: nextId++, method, params });
  await request('initialize', INIT_PARAMS);
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const list = await request('tools/list', {});
  return {
    toolCount: list.result.tools.length,
    call: async (name, input) => (await request('tools/call', { name, arguments: input })).result,
    close: async () => {
      if (session)
        await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session } }).catch(() => {});
    },
    raw: undefined,
  };
}

/** `AGENTWIRE_DIST` (a directory holding a build of src/) compares two builds in one sitting; default dist/. */
async function agentwire() {
  const dir = process.env.AGENTWIRE_DIST;
  if (dir === undefined) return import('../../dist/index.js');
  return import(pathToFileURL(path.resolve(dir, 'index.js')).href);
}

function agentwireConnection(client) {
  return client.connect().then(() => ({
    toolCount: client.getTools().length,
    call: (name, input) => client.callTool(name, input),
    close: () => client.disconnect(),
    raw: client,
  }));
}

async function sdkConnection(Client, transport) {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  const list = await client.listTools();
  return {
    toolCount: list.tools.length,
    call: (name, input) => client.callTool({ name, arguments: input }),
    close: () => client.close(),
    raw: client,
  };
}

async function aiSdkConnection(transport) {
  const { createMCPClient } = await import('@ai-sdk/mcp');
  const client = await createMCPClient({ transport });
  const tools = await client.tools();
  const options = { toolCallId: 'bench', messages: [] };
  return {
    toolCount: Object.keys(tools).length,
    call: (name, input) => tools[name].execute(input, options),
    close: () => client.close(),
    raw: client,
  };
}

async function langchainConnection(server) {
  const { MultiServerMCPClient } = await import('@langchain/mcp-adapters');
  const client = new MultiServerMCPClient({ mcpServers: { bench: server } });
  const tools = await client.getTools();
  const byName = new Map(tools.map((t) => [t.name.replace(/^mcp__bench__/, ''), t]));
  return {
    toolCount: tools.length,
    call: (name, input) => byName.get(name).invoke(input),
    close: () => client.close(),
    raw: client,
  };
}

async function openaiAgentsConnection(server) {
  await server.connect();
  const tools = await server.listTools();
  return {
    toolCount: tools.length,
    call: (name, input) => server.callTool(name, input),
    close: () => server.close(),
    raw: server,
  };
}

/**
 * The fourth peer, OpenAI Agents JS' MCP client: used only once `@openai/agents-core` is installed, in
 * frameworks/ (its `openai` 7 declares Node >= 22); absent, it is left out.
 */
const OPENAI_AGENTS = {
  id: 'openai-agents',
  label: '@openai/agents-core',
  pkg: '@openai/agents-core',
  stdio: async (cfg) => {
    const { MCPServerStdio } = loadPeer('@openai/agents-core');
    return openaiAgentsConnection(new MCPServerStdio({ name: 'bench', ...cfg }));
  },
  http: async (url) => {
    const { MCPServerStreamableHttp } = loadPeer('@openai/agents-core');
    return openaiAgentsConnection(new MCPServerStreamableHttp({ name: 'bench', url }));
  },
};

/** Every client under test, the floor first and agentwire second. */
export const ADAPTERS = [
  {
    id: 'floor',
    label: 'bare (no library)',
    pkg: null,
    stdio: floorStdio,
    http: floorHttp,
  },
  {
    id: 'agentwire',
    label: 'agentwire',
    pkg: 'agentwire',
    stdio: async (cfg) => {
      const { MCPClient } = await agentwire();
      return agentwireConnection(
        MCPClient.fromStdio({
          command: cfg.command,
          args: cfg.args ?? [],
          ...(cfg.env ? { env: cfg.env } : {}),
        }),
      );
    },
    http: async (url) => {
      const { MCPClient } = await agentwire();
      return agentwireConnection(MCPClient.fromUrl(url, { transport: 'streamable-http' }));
    },
  },
  {
    id: 'sdk-v2',
    label: 'SDK v2 (@modelcontextprotocol/client)',
    pkg: '@modelcontextprotocol/client',
    stdio: async (cfg) => {
      const { Client } = await import('@modelcontextprotocol/client');
      const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
      return sdkConnection(Client, new StdioClientTransport({ ...cfg, stderr: 'ignore' }));
    },
    http: async (url) => {
      const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
      return sdkConnection(Client, new StreamableHTTPClientTransport(new URL(url)));
    },
  },
  {
    id: 'sdk-v1',
    label: 'SDK v1 (@modelcontextprotocol/sdk)',
    pkg: '@modelcontextprotocol/sdk',
    stdio: async (cfg) => {
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
      return sdkConnection(Client, new StdioClientTransport({ ...cfg, stderr: 'ignore' }));
    },
    http: async (url) => {
      const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
      const { StreamableHTTPClientTransport } = await import(
        '@modelcontextprotocol/sdk/client/streamableHttp.js'
      );
      return sdkConnection(Client, new StreamableHTTPClientTransport(new URL(url)));
    },
  },
  {
    id: 'ai-sdk',
    label: '@ai-sdk/mcp',
    pkg: '@ai-sdk/mcp',
    stdio: async (cfg) => {
      const { Experimental_StdioMCPTransport } = await import('@ai-sdk/mcp/mcp-stdio');
      return aiSdkConnection(new Experimental_StdioMCPTransport({ ...cfg, stderr: 'ignore' }));
    },
    http: (url) => aiSdkConnection({ type: 'http', url }),
  },
  {
    id: 'langchain',
    label: '@langchain/mcp-adapters',
    pkg: '@langchain/mcp-adapters',
    stdio: (cfg) => langchainConnection({ transport: 'stdio', stderr: 'ignore', ...cfg }),
    http: (url) => langchainConnection({ transport: 'http', url }),
  },
  ...(versionOf(OPENAI_AGENTS.pkg) === 'not installed' ? [] : [OPENAI_AGENTS]),
];
