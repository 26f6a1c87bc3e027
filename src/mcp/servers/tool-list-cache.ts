/**
 * Where a server connected when needed (`lazy`) finds its tool list before it is started: the list its
 * last connect gave, kept by the host in a cache of its choosing ({@link MCPToolListCache}), one entry per
 * server configuration. The key is a hash of what reaches the server (command, arguments, working folder,
 * URL, transport) and the names, never the values, of its environment variables and headers, so no secret
 * is ever part of it or of the cache's file names.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { MCPServerEntry } from '../config/entry.js';
import type { MCPToolDefinition } from '../protocol/types.js';

/** A host's store of tool lists by configuration key ({@link toolListCacheKey}). */
export interface MCPToolListCache {
  /** The list last written under `key`, or undefined. Never rejects for a missing or unreadable entry. */
  read(key: string): Promise<MCPToolDefinition[] | undefined>;
  /** Keeps `tools` under `key`, replacing what was there. */
  write(key: string, tools: readonly MCPToolDefinition[]): Promise<void>;
}

/**
 * A tool-list cache in a folder (made when missing): one `<key>.json` file per server configuration,
 * written whole through a temporary file and a rename, so a reader never sees half a list.
 */
export class MCPToolListFileCache implements MCPToolListCache {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
  }

  async read(key: string): Promise<MCPToolDefinition[] | undefined> {
    try {
      const parsed: unknown = JSON.parse(await readFile(this.#file(key), 'utf8'));
      const tools = (parsed as { tools?: unknown }).tools;
      return Array.isArray(tools) ? (tools as MCPToolDefinition[]) : undefined;
    } catch {
      // A missing or damaged entry is a cache miss: the server's configured list (or none) is used.
      return undefined;
    }
  }

  async write(key: string, tools: readonly MCPToolDefinition[]): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const file = this.#file(key);
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify({ tools })}\n`);
    await rename(temporary, file);
  }

  #file(key: string): string {
    return path.join(this.dir, `${key.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);
  }
}

/**
 * The cache key of a configuration entry: the SHA-256 (hex) of its name and what reaches the server,
 * variable and header names only (see the module header).
 */
export function toolListCacheKey(entry: MCPServerEntry): string {
  const shape =
    entry.kind === 'stdio'
      ? {
          name: entry.name,
          kind: entry.kind,
          command: entry.server.command,
          args: entry.server.args ?? [],
          cwd: entry.server.cwd ?? null,
          env: Object.keys(entry.server.env ?? {}).sort(),
        }
      : {
          name: entry.name,
          kind: entry.kind,
          url: entry.url,
          transport: entry.options.transport,
          headers: Object.keys(entry.options.headers ?? {}).sort(),
        };
  return createHash('sha256').update(JSON.stringify(shape)).digest('hex');
}
