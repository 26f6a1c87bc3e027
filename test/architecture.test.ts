/**
 * The layering rule: data flows one way, `core → mcp → agent → cli`, with `providers/` and
 * `tools/` beside `mcp/` as leaves over `core/`, `gateway/` (over `mcp/`) for the CLI, `adapters/` (over `mcp/`)
 * for other agent frameworks, and `restate/` (durable runs, the `agentwire/restate` subpath) over `agent/`. A
 * lower layer never imports a higher one, and there are no
 * import cycles. The import graph comes from madge, which reads the TypeScript sources as the compiler does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import madge from 'madge';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

/** What each top-level folder of src/ may import (besides itself). */
const ALLOWED: Record<string, string[]> = {
  core: [],
  mcp: ['core'],
  providers: ['core'],
  tools: ['core'],
  agent: ['core', 'mcp', 'providers', 'tools'],
  gateway: ['core', 'mcp'],
  // The framework adapters (`agentwire/ai-sdk`, …): over `mcp/`, each loaded only through its subpath.
  adapters: ['core', 'mcp'],
  restate: ['core', 'mcp', 'providers', 'tools', 'agent'],
  cli: ['core', 'mcp', 'providers', 'tools', 'agent', 'gateway'],
  '.': ['core', 'mcp', 'providers', 'tools', 'agent'],
};

const layerOf = (file: string) => (file.includes('/') ? file.split('/')[0]! : '.');

/**
 * The rooms of `session/`: the wire (the one owner of a connection's transport), negotiation (which
 * revision), the protocol engine (requests, results, the server's requests), tasks; `session/` itself holds
 * the session that ties them together.
 */
const SESSION_ROOMS = ['session/wire', 'session/negotiation', 'session/engine', 'session/tasks'];

/**
 * The rooms of `mcp/`, lowest first, and what each may import (besides itself and `core/`): wire types and
 * errors at the bottom, the authorization grants' configuration and errors over them, then configuration
 * (which knows no client), transports (which know no session), the session, the tool adapter, the client's
 * hooks (what carries a request's context to the HTTP transport), the client, and `MCPServers` over clients. `index.ts` is the public face.
 */
const MCP_ALLOWED: Record<string, string[]> = {
  protocol: [],
  auth: ['protocol'],
  config: ['protocol', 'auth'],
  'transports/json': ['protocol'],
  transports: ['protocol'],
  'transports/stdio': ['protocol', 'transports', 'transports/json'],
  'transports/http': ['protocol', 'auth', 'transports', 'transports/json'],
  session: ['protocol', 'auth', 'transports', ...SESSION_ROOMS],
  'session/wire': ['protocol', 'auth', 'transports', 'session'],
  'session/negotiation': ['protocol', 'auth', 'transports', 'session', 'session/wire'],
  'session/engine': ['protocol', 'auth', 'transports', 'session', 'session/wire'],
  'session/tasks': ['protocol', 'auth', 'transports', 'session', 'session/wire', 'session/engine'],
  adapter: ['protocol', 'session', ...SESSION_ROOMS],
  'client/hooks': ['protocol', 'config', 'transports/http'],
  client: [
    'protocol',
    'auth',
    'config',
    'transports',
    'transports/stdio',
    'transports/http',
    'session',
    ...SESSION_ROOMS,
    'adapter',
    'client/hooks',
  ],
  servers: ['protocol', 'config', 'session', ...SESSION_ROOMS, 'adapter', 'client'],
  '.': [
    'protocol',
    'auth',
    'config',
    'transports/http',
    'session',
    ...SESSION_ROOMS,
    'adapter',
    'client/hooks',
    'client',
    'servers',
  ],
};

/**
 * The one file of `mcp/` the gateway may import (its door into the client layer): the rooms behind it can
 * be rearranged without the gateway noticing.
 */
const GATEWAY_DOOR = 'mcp/for-gateway.ts';

/** The room of a file under `mcp/`: its folder below `mcp/` (`transports/http`, `client`, `.`). */
const roomOf = (file: string) => path.posix.dirname(file.slice('mcp/'.length));

describe('architecture', async () => {
  const graph = await madge(path.join(ROOT, 'src'), {
    fileExtensions: ['ts'],
    tsConfig: path.join(ROOT, 'tsconfig.json'),
  });

  it('has no import cycles', () => {
    expect(graph.circular()).toEqual([]);
  });

  it('never imports upward across layers', () => {
    const violations: string[] = [];
    for (const [file, imports] of Object.entries(graph.obj())) {
      const from = layerOf(file);
      for (const target of imports) {
        const to = layerOf(target);
        if (to !== from && !(ALLOWED[from] ?? []).includes(to)) violations.push(`${file} -> ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps the rooms of mcp/ in their order', () => {
    const violations: string[] = [];
    const files = Object.entries(graph.obj()).filter(([file]) => file.startsWith('mcp/'));
    for (const [file, imports] of files) {
      const from = roomOf(file);
      if (!(from in MCP_ALLOWED)) violations.push(`${file}: a folder the rules do not know`);
      for (const target of imports.filter((target) => target.startsWith('mcp/'))) {
        const to = roomOf(target);
        if (to !== from && !(MCP_ALLOWED[from] ?? []).includes(to)) violations.push(`${file} -> ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('lets the gateway into the client layer through its one door only', () => {
    const violations: string[] = [];
    for (const [file, imports] of Object.entries(graph.obj())) {
      if (layerOf(file) !== 'gateway') continue;
      for (const target of imports)
        if (layerOf(target) === 'mcp' && target !== GATEWAY_DOOR) violations.push(`${file} -> ${target}`);
    }
    expect(violations).toEqual([]);
    // The door is used (type-only imports included), so the rule checks real edges.
    expect(graph.obj()['gateway/tool-list.ts']).toEqual([GATEWAY_DOOR]);
    expect(graph.obj()['gateway/routing.ts']).toContain(GATEWAY_DOOR);
  });

  it('keeps every file of src/ under 450 lines', () => {
    const long = Object.keys(graph.obj())
      .map((file) => ({ file, lines: readFileSync(path.join(ROOT, 'src', file), 'utf8').split('\n').length }))
      .filter(({ lines }) => lines > 450)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it('sees the whole source tree and resolves its .js-suffixed imports', () => {
    expect(Object.keys(graph.obj()).length).toBeGreaterThan(60);
    expect(graph.obj()['mcp/client/connection.ts']).toContain('mcp/session/session.ts');
    expect(graph.warnings().skipped).toEqual([]);
  });
});
