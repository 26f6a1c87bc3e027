/**
 * The gate every routed request of a gateway client passes (`tools/call`, `prompts/get`, `resources/read`,
 * `completion/complete`), on either transport: the access policy (access-policy.ts), then for `tools/call`
 * the rate limits (rate-limits.ts), then the upstream request itself (upstream-call.ts: refused at once while
 * the upstream is down); and one audit entry per request, whatever its fate, given to the `audit` hook
 * (audit-log.ts writes them as JSON lines). The entry names the caller, the request and the decision, with
 * how long it took; never its arguments or its result.
 */
import { ProtocolError } from '@modelcontextprotocol/server';
import { MCPCallError } from '../mcp/for-gateway.js';
import { type AccessPolicy, forbidden, type GrantKind } from './access-policy.js';
import type { MCPGatewayCaller } from './caller.js';
import type { RateLimits } from './rate-limits.js';

/** One audit entry: a request of a gateway client and what became of it. */
export interface MCPGatewayAuditEntry {
  /** When the request arrived (ISO 8601). */
  time: string;
  /** How the caller was recognised, and its id (caller.ts). */
  auth: MCPGatewayCaller['auth'];
  caller: string;
  /** `tools/call`, `prompts/get`, `resources/read` or `completion/complete`. */
  method: string;
  /** The upstream, and the tool, prompt, resource URI or template as the upstream names it. */
  server: string;
  name: string;
  /** `allowed`, or why not: `forbidden` (the policy), `rate_limited`, `unavailable` (its upstream is down). */
  decision: 'allowed' | 'forbidden' | 'rate_limited' | 'unavailable';
  /**
   * For an allowed request: `ok`, `tool_error` (a result with `isError`), `input_required` (a round that
   * asks the client), or `error` (the upstream failed; `error` is the kind).
   */
  outcome?: 'ok' | 'tool_error' | 'input_required' | 'error';
  error?: string;
  /** From arrival to answer, in ms (three decimals). */
  durationMs: number;
}

/** One request through the gate. */
export interface GatedRequest {
  caller: MCPGatewayCaller;
  method: 'tools/call' | 'prompts/get' | 'resources/read' | 'completion/complete';
  /** What the policy calls it: its kind, upstream and name there. */
  kind: GrantKind;
  server: string;
  name: string;
}

/** The gated request `method` of `caller` for `name` (a tool, prompt or resource: `kind`) on upstream `server`. */
export function gatedRequest(
  caller: MCPGatewayCaller,
  method: GatedRequest['method'],
  kind: GrantKind,
  server: string,
  name: string,
): GatedRequest {
  return { caller, method, kind, server, name };
}

/** The gate; see the file header. */
export class CallGate {
  readonly #policy: AccessPolicy;
  readonly #limits: RateLimits;
  readonly #audit: ((entry: MCPGatewayAuditEntry) => void) | undefined;

  constructor(policy: AccessPolicy, limits: RateLimits, audit?: (entry: MCPGatewayAuditEntry) => void) {
    this.#policy = policy;
    this.#limits = limits;
    this.#audit = audit;
  }

  /** The access policy, for the lists. */
  get policy(): AccessPolicy {
    return this.#policy;
  }

  /**
   * Runs `send` for `request` when the policy and the rate limits let it through, and audits it.
   * @throws ProtocolError `forbidden` / `rate_limited`; what `send` throws.
   */
  async run<T>(request: GatedRequest, send: () => Promise<T>): Promise<T> {
    const record = this.#audit;
    // Without an audit hook, no clock is read and no entry made.
    const started = record ? performance.now() : 0;
    const time = record ? new Date().toISOString() : '';
    const audit = (entry: Pick<MCPGatewayAuditEntry, 'decision' | 'outcome' | 'error'>) =>
      record?.({
        time,
        auth: request.caller.auth,
        caller: request.caller.id,
        method: request.method,
        server: request.server,
        name: request.name,
        ...entry,
        durationMs: Math.round((performance.now() - started) * 1000) / 1000,
      });
    const { caller, kind, server, name } = request;
    if (!this.#policy.grants(caller).allows(kind, server, name)) {
      audit({ decision: 'forbidden' });
      throw forbidden(request.method, server, name);
    }
    const limited = request.method === 'tools/call' ? this.#limits.take(caller, server, name) : undefined;
    if (limited) {
      audit({ decision: 'rate_limited' });
      throw limited;
    }
    try {
      const result = await send();
      audit({ decision: 'allowed', outcome: outcomeOf(result) });
      return result;
    } catch (error) {
      const why = kindOf(error);
      audit(
        why === 'unavailable'
          ? { decision: 'unavailable' }
          : { decision: 'allowed', outcome: 'error', error: why },
      );
      throw error;
    }
  }
}

function outcomeOf(result: unknown): NonNullable<MCPGatewayAuditEntry['outcome']> {
  const fields = result as { isError?: unknown; resultType?: unknown } | undefined;
  if (fields?.resultType === 'input_required') return 'input_required';
  return fields?.isError === true ? 'tool_error' : 'ok';
}

/** The kind of a failure: the gateway's refusal's `data.kind`, the upstream's `MCPCallError` kind. */
function kindOf(error: unknown): string {
  if (error instanceof ProtocolError) {
    const kind = (error.data as { kind?: unknown } | undefined)?.kind;
    return typeof kind === 'string' ? kind : 'jsonrpc';
  }
  return error instanceof MCPCallError ? error.kind : 'gateway';
}
