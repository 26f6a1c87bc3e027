/**
 * The gateway's options, and the `gateway` section of a configuration file that sets them.
 *
 * A configuration file for `agentwire serve` is an ordinary server configuration (`mcpServers` / `servers`)
 * plus an optional top-level `gateway` object, which other hosts ignore:
 *
 * ```json
 * { "gateway": { "bearerTokenEnv": "GATEWAY_TOKEN", "separator": "__" },
 *   "mcpServers": { "fs": { "command": "npx", "args": ["…"], "prefix": "files", "maxConcurrentCalls": 1 } } }
 * ```
 *
 * Each entry may carry `"prefix"`: the string its tools and prompts are prefixed with (default: the server's
 * name), or `false` for none.
 */
import { readFileSync } from 'node:fs';
import type { ServerEventBus } from '@modelcontextprotocol/server';
import { isRecord } from '../core/json.js';
import { MCPConfigError, parseConfigText, serverPrefix } from '../mcp/for-gateway.js';
import { ACCESS_KEYS, type MCPGatewayAccessSettings, readAccessSettings } from './access-config.js';
import type { MCPGatewayPolicy } from './access-policy.js';
import type { MCPGatewayAuditEntry } from './call-gate.js';
import type { GatewayCluster } from './cluster.js';
import type { MCPGatewayRateLimits } from './rate-limits.js';
import type { MCPGatewayReconnectOptions } from './upstream-health.js';

/** Default of `maxRequestBodyBytes`: 4 MiB, the MCP SDK's. */
export const DEFAULT_MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;
/** Default of `maxSubscriptions`: the MCP SDK's 1024. */
export const DEFAULT_MAX_SUBSCRIPTIONS = 1024;
/** Default of `inputWaitMs`: how long an upstream's question waits for the gateway client's answer, in ms. */
export const DEFAULT_INPUT_WAIT_MS = 120_000;
/** Default of `sessionMaxAgeMs`: a 2025-era HTTP session id is accepted for 24 hours after `initialize`. */
export const DEFAULT_SESSION_MAX_AGE_MS = 24 * 3600_000;

/** How the tools and prompts of one upstream are named at the gateway. */
export interface MCPGatewayNaming {
  /** Per server name: its prefix, or `false` for none. Default: the server's name. */
  prefixes?: Readonly<Record<string, string | false>>;
  /** Between prefix and name. Default `'__'`. */
  separator?: string;
}

/** Options of `MCPGateway`. */
export interface MCPGatewayOptions extends MCPGatewayNaming {
  /** `serverInfo` the gateway announces. Default `{ name: 'agentwire-gateway', version: <agentwire's> }`. */
  serverInfo?: { name: string; version: string };
  /**
   * The change-event bus that `subscriptions/listen` streams of the HTTP endpoint subscribe to (MCP spec
   * 2026-07-28, "Subscriptions"). Default: the MCP SDK's in-memory bus. Give a shared one (Redis, …) to run
   * several gateway processes behind one address.
   */
  bus?: ServerEventBus;
  /** Most `subscriptions/listen` streams open at once per endpoint (HTTP) or connection (stdio). Default 1024. */
  maxSubscriptions?: number;
  /** Largest HTTP request body accepted, in bytes; larger ones are answered 413. Default 4 MiB. */
  maxRequestBodyBytes?: number;
  /**
   * How long an elicitation or sampling request from an upstream waits for the gateway client to answer
   * (through an `input_required` round in 2026-07-28), in ms; then it is cancelled. Default 120 000.
   */
  inputWaitMs?: number;
  /**
   * The backoff of the gateway's reconnection of its upstreams (upstream-health.ts): an upstream that is
   * down is connected again for as long as the gateway runs. Default `{ initialDelayMs: 500, maxDelayMs:
   * 30_000 }`.
   */
  reconnect?: MCPGatewayReconnectOptions;
  /**
   * What each caller may see and call (access-policy.ts): lists never show what it denies, and a request
   * for it is refused `-32603` with `data: { server, kind: 'forbidden' }`. Default: none, everything to
   * everyone.
   */
  policy?: MCPGatewayPolicy;
  /** Rate limits of `tools/call` per caller and per tool (rate-limits.ts). Default: none. */
  rateLimits?: MCPGatewayRateLimits;
  /**
   * Told of every routed request of a client (`tools/call`, `prompts/get`, `resources/read`,
   * `completion/complete`) and what became of it: caller, request, decision, duration; never arguments or
   * results (call-gate.ts). `openAuditLog` writes them as JSON lines.
   */
  audit?: (entry: MCPGatewayAuditEntry) => void;
  /**
   * The secret (≥ 32 characters) that seals the `Mcp-Session-Id` of 2025-era HTTP sessions (AES-256-GCM,
   * session-seal.ts). Every process of one gateway must have the same one for any of them to serve any
   * session. Default: a random key per process, so a session is served by the process that opened it only.
   */
  sessionSecret?: string;
  /** How long a 2025-era HTTP session id is accepted after `initialize`, in ms. Default 24 hours. */
  sessionMaxAgeMs?: number;
  /**
   * How the processes of one gateway reach each other (cluster.ts; `createRedisCluster` over Redis): a
   * 2025 client's answer or cancellation that reaches another process than the one holding the call, and
   * a 2026-07-28 retry of an `input_required` round, are forwarded through it. Default: this process alone.
   */
  cluster?: GatewayCluster;
}

/** The `gateway` section of a configuration file, read. */
export interface MCPGatewayFileSettings extends MCPGatewayNaming, MCPGatewayAccessSettings {
  /** `bearerTokenEnv`: the environment variable holding the bearer token HTTP clients must present. */
  bearerTokenEnv?: string;
  /** `maxSubscriptions`. */
  maxSubscriptions?: number;
  /** `maxRequestBodyBytes`. */
  maxRequestBodyBytes?: number;
  /** `allowedHosts`: extra Host names accepted besides the loopback names. */
  allowedHosts?: string[];
  /**
   * `redisUrl`: the Redis server (`redis://[user:password@]host[:port][/db]`, `rediss://…` for TLS) whose
   * pub/sub carries change events between gateway processes; see `createRedisEventBus`. Never printed.
   */
  redisUrl?: string;
  /** `redisChannelPrefix`: the bus's `channelPrefix` (default `'agentwire:mcp:'`). */
  redisChannelPrefix?: string;
  /**
   * `sessionSecretEnv`: the environment variable holding the secret that seals 2025-era session ids (see
   * `MCPGatewayOptions.sessionSecret`); the same for every process of one gateway. Never printed.
   */
  sessionSecretEnv?: string;
}

/** The keys of the `gateway` section; any other is refused. */
const GATEWAY_KEYS: ReadonlySet<string> = new Set([
  'bearerTokenEnv',
  'separator',
  'maxSubscriptions',
  'maxRequestBodyBytes',
  'allowedHosts',
  'redisUrl',
  'redisChannelPrefix',
  ...ACCESS_KEYS,
  'sessionSecretEnv',
]);

/**
 * Reads the `gateway` section and the entries' `prefix` fields of the configuration file `file` (JSON or
 * JSONC, as `loadServerConfig` reads it).
 * @throws MCPConfigError naming the field when one has the wrong type or is not a gateway setting, or the
 *   file when it is not JSON.
 */
export function readGatewaySettings(file: string): MCPGatewayFileSettings {
  // Read as loadServerConfig reads it (JSON or JSONC), which has already checked the file.
  const raw = parseConfigText(readFileSync(file, 'utf8'), file);
  if (!isRecord(raw)) return {};
  const section = raw.gateway === undefined ? {} : raw.gateway;
  if (!isRecord(section)) throw settingError(file, 'gateway', 'must be an object');
  // A misspelt setting would otherwise be ignored and its default used without a word.
  const unknown = Object.keys(section).find((key) => !GATEWAY_KEYS.has(key));
  if (unknown !== undefined)
    throw settingError(file, unknown, `is not a gateway setting (known: ${[...GATEWAY_KEYS].join(', ')})`);
  const settings: MCPGatewayFileSettings = readAccessSettings(file, section);
  const text = (key: string) => {
    const value = section[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value === '')
      throw settingError(file, key, 'must be a non-empty string');
    return value;
  };
  const count = (key: string) => {
    const value = section[key];
    if (value === undefined) return undefined;
    if (!Number.isInteger(value) || (value as number) < 1)
      throw settingError(file, key, 'must be a whole number ≥ 1');
    return value as number;
  };
  const token = text('bearerTokenEnv');
  if (token !== undefined) settings.bearerTokenEnv = token;
  const separator = text('separator');
  if (separator !== undefined) settings.separator = separator;
  const subscriptions = count('maxSubscriptions');
  if (subscriptions !== undefined) settings.maxSubscriptions = subscriptions;
  const body = count('maxRequestBodyBytes');
  if (body !== undefined) settings.maxRequestBodyBytes = body;
  const redisUrl = text('redisUrl');
  if (redisUrl !== undefined) settings.redisUrl = redisUrl;
  const sessionSecretEnv = text('sessionSecretEnv');
  if (sessionSecretEnv !== undefined) settings.sessionSecretEnv = sessionSecretEnv;
  const channelPrefix = text('redisChannelPrefix');
  if (channelPrefix !== undefined) settings.redisChannelPrefix = channelPrefix;
  const hosts = section.allowedHosts;
  if (hosts !== undefined) {
    if (!Array.isArray(hosts) || !hosts.every((host) => typeof host === 'string'))
      throw settingError(file, 'allowedHosts', 'must be an array of strings');
    settings.allowedHosts = hosts;
  }
  const entries = isRecord(raw.mcpServers) ? raw.mcpServers : isRecord(raw.servers) ? raw.servers : {};
  const prefixes: Record<string, string | false> = {};
  for (const [name, entry] of Object.entries(entries)) {
    if (!isRecord(entry) || entry.prefix === undefined) continue;
    if (entry.prefix !== false && (typeof entry.prefix !== 'string' || entry.prefix === ''))
      throw new MCPConfigError(
        `config ${file}: server "${name}": "prefix" must be a non-empty string or false`,
        { file, entry: name, field: 'prefix' },
      );
    prefixes[name] = entry.prefix;
  }
  refuseSharedPrefixes(file, Object.keys(entries), prefixes);
  if (Object.keys(prefixes).length > 0) settings.prefixes = prefixes;
  return settings;
}

/**
 * Two entries whose tools would be named with the same prefix (a `"prefix"` given twice, or one equal to
 * another entry's name) would hide each other's tools of the same name, and which upstream a call reaches
 * could not be told: refused, naming both entries.
 * @throws MCPConfigError naming the file, the second entry and its `prefix` field.
 */
function refuseSharedPrefixes(
  file: string,
  names: readonly string[],
  prefixes: Readonly<Record<string, string | false>>,
): void {
  const owners = new Map<string, string>();
  for (const name of names) {
    const prefix = prefixes[name] ?? name;
    if (prefix === false) continue;
    const key = serverPrefix(prefix);
    const owner = owners.get(key);
    if (owner !== undefined)
      throw new MCPConfigError(
        `config ${file}: servers "${owner}" and "${name}" would both prefix their tools with "${key}"; give one a "prefix" of its own`,
        { file, entry: name, field: 'prefix' },
      );
    owners.set(key, name);
  }
}

function settingError(file: string, key: string, problem: string): MCPConfigError {
  const field = key === 'gateway' ? '"gateway"' : `"gateway.${key}"`;
  return new MCPConfigError(`config ${file}: ${field} ${problem}`, { file, field: key });
}

/**
 * Checks that `value` is a whole number ≥ 1 (or unset).
 * @throws RangeError naming the option otherwise.
 */
export function checkCount(name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 1))
    throw new RangeError(`MCPGateway: ${name} must be a whole number ≥ 1 (got ${value})`);
}
