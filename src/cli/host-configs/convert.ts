/**
 * Each host's file to the `{ mcpServers }` / `{ servers }` object the config loader reads
 * (`parseServerConfig`), or `undefined` when the file holds no servers (a `~/.claude.json` without MCP
 * servers, a Codex `config.toml` with other settings only).
 */
import type { HostConfigFormat } from './locations.js';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The servers of a parsed file of `format`, in the loader's form; `cwd` picks Claude Code's project entry.
 * Unknown shapes are passed on as they are, so the loader reports what is wrong with them.
 */
export function toServerConfig(format: HostConfigFormat, value: unknown, cwd: string): Json | undefined {
  if (!isRecord(value)) return { mcpServers: value };
  switch (format) {
    case 'json':
      return value.mcpServers === undefined && value.servers === undefined ? undefined : value;
    case 'claude-user':
      return value.mcpServers === undefined ? undefined : { mcpServers: value.mcpServers };
    case 'claude-local': {
      const projects = isRecord(value.projects) ? value.projects : {};
      const project = projects[cwd];
      const servers = isRecord(project) ? project.mcpServers : undefined;
      return servers === undefined || (isRecord(servers) && Object.keys(servers).length === 0)
        ? undefined
        : { mcpServers: servers };
    }
    case 'windsurf':
      return value.mcpServers === undefined ? undefined : { mcpServers: windsurfServers(value.mcpServers) };
    case 'codex':
      return value.mcp_servers === undefined ? undefined : { mcpServers: codexServers(value.mcp_servers) };
  }
}

/** Windsurf names a remote server's endpoint `serverUrl`. */
function windsurfServers(servers: unknown): unknown {
  if (!isRecord(servers)) return servers;
  const out: Json = {};
  for (const [name, entry] of Object.entries(servers)) {
    if (!isRecord(entry) || entry.serverUrl === undefined || entry.url !== undefined) {
      out[name] = entry;
      continue;
    }
    const { serverUrl, ...rest } = entry;
    out[name] = { ...rest, url: serverUrl };
  }
  return out;
}

/**
 * Codex's `[mcp_servers.<name>]`: `command`, `args`, `env`, `cwd` for a local server; `url` with
 * `http_headers`, `env_http_headers` (header → variable) and `bearer_token_env_var` for a remote one;
 * `enabled = false`, `enabled_tools`, `disabled_tools`.
 */
function codexServers(servers: unknown): unknown {
  if (!isRecord(servers)) return servers;
  const out: Json = {};
  for (const [name, entry] of Object.entries(servers)) {
    if (!isRecord(entry)) {
      out[name] = entry;
      continue;
    }
    const {
      enabled,
      enabled_tools,
      disabled_tools,
      http_headers,
      env_http_headers,
      bearer_token_env_var,
      startup_timeout_sec: _startup,
      tool_timeout_sec: _tool,
      ...rest
    } = entry;
    const headers: Json = isRecord(http_headers) ? { ...http_headers } : {};
    if (isRecord(env_http_headers)) {
      for (const [header, variable] of Object.entries(env_http_headers))
        headers[header] = `\${env:${String(variable)}}`;
    }
    if (typeof bearer_token_env_var === 'string')
      headers.Authorization = `Bearer \${env:${bearer_token_env_var}}`;
    out[name] = {
      ...rest,
      ...(Object.keys(headers).length > 0 && { headers }),
      ...(enabled === false && { disabled: true }),
      ...(enabled_tools !== undefined && { allowTools: enabled_tools }),
      ...(disabled_tools !== undefined && { blockTools: disabled_tools }),
    };
  }
  return out;
}
