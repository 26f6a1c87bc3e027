/**
 * gateway/: many MCP servers served as one MCP server (`agentwire serve`), over Streamable HTTP and stdio,
 * to clients of the 2026-07-28 and 2025 revisions. See gateway.ts.
 *
 * @module agentwire/gateway
 */
export type { MCPGatewayAccessCheck, MCPGatewayAccessOptions } from './access.js';
export { createAccessCheck } from './access.js';
export type {
  MCPGatewayGrants,
  MCPGatewayPolicy,
  MCPGatewayRule,
  MCPGatewayRuleMatch,
} from './access-policy.js';
export { type MCPGatewayAuditLog, openAuditLog } from './audit-log.js';
export type { MCPGatewayAuditEntry } from './call-gate.js';
export type { MCPGatewayCaller } from './caller.js';
export type { MCPGatewayTarget } from './catalog.js';
export { type ClusterMessage, type GatewayCluster, localCluster } from './cluster.js';
export { MCPGateway, type MCPGatewayConfigOptions } from './gateway.js';
export type { MCPGatewayHttpHost, MCPGatewayListenOptions } from './http-host.js';
export type { MCPGatewayJwtOptions } from './jwt-verifier.js';
export {
  DEFAULT_INPUT_WAIT_MS,
  DEFAULT_MAX_REQUEST_BODY_BYTES,
  DEFAULT_MAX_SUBSCRIPTIONS,
  DEFAULT_SESSION_MAX_AGE_MS,
  type MCPGatewayFileSettings,
  type MCPGatewayNaming,
  type MCPGatewayOptions,
  readGatewaySettings,
} from './options.js';
export type { MCPGatewayRate, MCPGatewayRateLimits } from './rate-limits.js';
export { createRedisCluster, type RedisClusterOptions } from './redis-cluster.js';
export {
  createRedisEventBus,
  DEFAULT_REDIS_CHANNEL_PREFIX,
  RedisEventBus,
  RedisEventBusError,
  type RedisEventBusOperation,
  type RedisEventBusOptions,
} from './redis-event-bus.js';
export {
  type MCPGatewayStatusDocument,
  type MCPGatewayUpstreamStatus,
  STATUS_RESOURCE,
} from './status.js';
export type { MCPGatewayStdioHost, MCPGatewayStdioOptions } from './stdio-host.js';
export type { MCPGatewayReconnectOptions, MCPGatewayUpstreamState } from './upstream-health.js';
