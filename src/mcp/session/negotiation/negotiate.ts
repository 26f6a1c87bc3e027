/**
 * Finding the revision both sides speak, on the real connection, before the SDK's `Client` takes it.
 *
 * The client sends `server/discover` first (MCP spec 2026-07-28, "Server > Discover"; "Transports > stdio >
 * Backward Compatibility": a client speaking both eras SHOULD probe with it). The answer is read by the
 * spec's rule ("Basic > Versioning > Backward Compatibility": "a recognized modern JSON-RPC error identifies
 * a modern server ... Anything else identifies a legacy server"):
 * - a `DiscoverResult` that lists a revision we speak: the modern era;
 * - a recognized modern error ({@link MODERN_ERROR_CODES}): -32022 naming a revision we speak means one retry
 *   at that revision; -32020 (header mismatch) or -32021 (missing client capability) fail the connect, since
 *   the request cannot be corrected without the caller ("Transports > Streamable HTTP > Backward
 *   Compatibility": correct the request "rather than falling back");
 * - anything else is a legacy server, and the 2025 `initialize` handshake follows at once on the same
 *   connection: any other JSON-RPC error (-32601, -32600, -32603, …; the fallback "MUST NOT be keyed to one
 *   specific error code"), a result that is no `DiscoverResult`, over HTTP any status (5xx included) whose
 *   body holds no recognized modern error, an HTML or empty body, a response stream closed before the
 *   answer; over stdio, no answer within the probe's bound ({@link DEFAULT_PROBE_TIMEOUT_MS}, `probeTimeoutMs`,
 *   at most half of what is left of the connect timeout: the connect timeout is one deadline for the probe,
 *   `initialize` and the first tool list, and a server that ignores unknown requests still has the rest
 *   for `initialize`). A server process that died on the probe is started again, once.
 * What is not an answer fails the connect as it would fail `initialize`: over HTTP a 401 or 403 (OAuth's),
 * no connection at all (refused, no such host), or no answer within the connect timeout. The verdict goes to the SDK through
 * its public `connect(transport, { prior })`: `{ kind: 'modern', discover }` adopts the result with no more
 * round trips, `{ kind: 'legacy' }` is the plain `initialize` exchange, byte for byte.
 *
 * Unlike the SDK's own `'auto'` mode, this costs no second server process on stdio and keeps agentwire's
 * error classes and timeouts. Whether a transport can be probed is its plan's {@link EraProbe} flag.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type DiscoverResult,
  type JSONRPCMessage,
  OAuthClientFlowError,
  OAuthError,
  PROTOCOL_VERSION_META_KEY,
  type PriorDiscovery,
} from '@modelcontextprotocol/client';
import { MCPCallError } from '../../protocol/errors.js';
import type { Redactor } from '../../protocol/redact.js';
import type { Implementation } from '../../protocol/types.js';
import type { AgentwireTransport } from '../../transports/transport.js';
import { toCallError } from '../error-mapping.js';
import { type Correlator, Wire, type WireHooks } from '../wire/wire.js';
import { type VerdictSlot, verdictOf } from './era-verdict.js';
import {
  isModernVersion,
  LEGACY_PROTOCOL_VERSIONS,
  type MCPProtocolVersionOption,
  MODERN_PROTOCOL_VERSIONS,
  noCommonVersion,
  offeredVersions,
  supportedFrom,
} from './protocol-versions.js';

/**
 * How a transport's answers to the probe are read: `'stdio'` (silence or a closed process mean legacy) or
 * `'http'` (MCP spec 2026-07-28, "Transports > Streamable HTTP > Backward Compatibility": a 4xx without a
 * modern error body means legacy; 5xx, network errors and timeouts are errors). Absent: the transport
 * cannot carry the modern era, and connects the legacy way without a probe.
 */
export type EraProbe = 'stdio' | 'http';

/** Ids of probe requests: never a number (the SDK's) nor `aw-` (calls.ts), the probe's id space on the wire. */
export const PROBE_ID_PREFIX = 'probe-';

/**
 * Default bound on waiting for the answer to one stdio probe, in ms: a legacy server may ignore a request it
 * does not know (MCP spec 2026-07-28, "Transports > stdio > Backward Compatibility": "or does not respond
 * within a reasonable timeout"). Other SDKs bound it alike (C#: 5 s, Rust: 10 s).
 */
export const DEFAULT_PROBE_TIMEOUT_MS = 5_000;

/**
 * The JSON-RPC error codes that identify a modern server (MCP spec 2026-07-28, "Basic > Versioning > Backward
 * Compatibility"; the codes of "Schema > Error codes": `HeaderMismatch`, `MissingRequiredClientCapability`,
 * `UnsupportedProtocolVersion`). Every other code, -32601 and -32603 among them, is a legacy server's.
 */
export const MODERN_ERROR_CODES: ReadonlySet<number> = new Set([-32020, -32021, -32022]);

/** How a session picks its revision: the client's option and the transport's probe flag. */
export interface SessionEra {
  /** Default `'auto'`. */
  protocolVersion?: MCPProtocolVersionOption;
  /** The transport's {@link EraProbe}; absent: legacy only, no probe. */
  probe?: EraProbe | undefined;
  /** The modern revisions offered, most preferred first (tests offer unknown ones). */
  modernVersions?: readonly string[];
  /**
   * How 2026-07-28 `tools/call`s travel: `'direct'` (default; modern-calls.ts) or through the SDK's request
   * funnel (sdk-call.ts). The two behave alike; tests run the same cases on both.
   */
  modernCalls?: 'direct' | 'funnel';
  /** The client's verdict for this transport's origin (era-verdict.ts); absent: always probe. */
  verdict?: VerdictSlot | undefined;
  /** Bound on a stdio probe's answer in ms. Default {@link DEFAULT_PROBE_TIMEOUT_MS}. */
  probeTimeoutMs?: number | undefined;
}

/** What {@link negotiate} needs. */
export interface NegotiationRequest {
  server: string;
  createTransport: () => AgentwireTransport;
  probe?: EraProbe | undefined;
  protocolVersion: MCPProtocolVersionOption;
  clientInfo: Implementation;
  capabilities: Record<string, object>;
  /**
   * The connect timeout in ms: one deadline for the whole connect, counted from the call of {@link negotiate}.
   * An HTTP probe may use what is left of it; a stdio probe at most half of what is left (see {@link probeBound}).
   */
  timeoutMs: number;
  /**
   * Bound on a stdio probe's answer in ms, within half of what is left of `timeoutMs` (so that a legacy
   * server's `initialize` has the rest). Default {@link DEFAULT_PROBE_TIMEOUT_MS}.
   */
  probeTimeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** The modern revisions offered, most preferred first. Default {@link MODERN_PROTOCOL_VERSIONS}. */
  modernVersions?: readonly string[];
  /** The stored verdict of the origin, read before probing and written after (era-verdict.ts). */
  verdict?: VerdictSlot | undefined;
  /** The trace and late-answer hook of the wire made for the connection. */
  wireHooks?: WireHooks | undefined;
}

/** The verdict, and the wire it is for. */
export interface Negotiated {
  /** The connection's wire, started by the probe or not (its SDK port starts it then). */
  wire: Wire;
  /** For `sdk.connect(transport, { prior })`; `undefined`: connect as before 2026 (no probe was sent). */
  prior: PriorDiscovery | undefined;
}

type Outcome =
  | { kind: 'result'; result: unknown }
  | { kind: 'error'; code: number; data: unknown }
  | { kind: 'send-failed'; error: unknown }
  | { kind: 'timeout' }
  | { kind: 'closed' };

let probes = 0;

/**
 * {@link negotiate}, a failure mapped to the `MCPCallError` of the handshake: naming the server and
 * `initialize`, or the method that failed (`server/discover` for a failed probe), with `redact` applied.
 * @throws MCPCallError as {@link negotiate} documents.
 */
export async function negotiateOrFail(
  request: NegotiationRequest,
  redact: Redactor | undefined,
): Promise<Negotiated> {
  try {
    return await negotiate(request);
  } catch (error) {
    const method = error instanceof MCPCallError && error.method ? error.method : 'initialize';
    const { server, signal, timeoutMs } = request;
    throw toCallError(error, { server, method, signal, timeoutMs, redact });
  }
}

/**
 * Negotiates on a new transport of `request.createTransport` (see the file header).
 * @throws MCPCallError kind `protocol` code -32022 ({@link noCommonVersion}) when no revision is shared;
 *   kind `protocol` when pinned to 2026-07-28 and the server is legacy; the transport's own errors
 *   (`spawn`, `http`, `transport`, `timeout` on HTTP) and `aborted` when `signal` fired.
 */
export async function negotiate(request: NegotiationRequest): Promise<Negotiated> {
  const deadline = performance.now() + request.timeoutMs;
  const wire = new Wire(request.createTransport(), request.wireHooks);
  const pin = request.protocolVersion;
  if (pin !== 'auto' && !isModernVersion(pin)) return { wire, prior: { kind: 'legacy' } };
  if (request.probe === undefined) {
    if (pin === 'auto') return { wire, prior: undefined };
    throw new MCPCallError('protocol', `this transport cannot speak MCP ${pin} yet`, {
      server: request.server,
      method: 'server/discover',
    });
  }
  const modern = pin === 'auto' ? (request.modernVersions ?? MODERN_PROTOCOL_VERSIONS) : [pin];
  const known = request.verdict?.get();
  const knownModern = known?.era === 'modern' && modern.includes(known.version) ? known : undefined;
  if (known?.era === 'legacy' && pin === 'auto') return { wire, prior: { kind: 'legacy' } };
  if (knownModern && performance.now() < knownModern.staleAt)
    return { wire, prior: { kind: 'modern', discover: knownModern.discover } };
  await wire.start();
  try {
    const negotiated = await probe(wire, request, pin, modern, knownModern?.version, deadline);
    const verdict = verdictOf(negotiated.prior, modern);
    if (verdict) request.verdict?.set(verdict);
    return negotiated;
  } catch (error) {
    await wire.close();
    throw error;
  }
}

/** The probes on the started `wire`, and the verdict. */
async function probe(
  wire: Wire,
  request: NegotiationRequest,
  pin: MCPProtocolVersionOption,
  modern: readonly string[],
  agreed: string | undefined,
  deadline: number,
): Promise<Negotiated> {
  const legacy = (): Negotiated => {
    if (pin !== 'auto') throw notModern(request, pin);
    return { wire, prior: { kind: 'legacy' } };
  };
  const answers = new ProbeAnswers();
  wire.claim(PROBE_ID_PREFIX, answers);
  // A revision agreed before (era-verdict.ts) goes first: no -32022 correction round again.
  let version = agreed ?? modern[0] ?? MODERN_PROTOCOL_VERSIONS[0];
  for (let attempt = 0; attempt < 2; attempt++) {
    const outcome = await probeOnce(wire, answers, version, request, probeBound(request, deadline));
    if (request.signal?.aborted) throw request.signal.reason;
    switch (outcome.kind) {
      case 'result': {
        const discover = discoverResult(outcome.result);
        const mutual = discover && modern.find((v) => discover.supportedVersions.includes(v));
        if (discover && mutual !== undefined) return { wire, prior: { kind: 'modern', discover } };
        if (pin === 'auto') return legacy();
        throw noCommonVersion(request.server, 'server/discover', modern, discover?.supportedVersions);
      }
      case 'error': {
        if (!MODERN_ERROR_CODES.has(outcome.code)) return legacy();
        if (outcome.code !== -32022) throw jsonRpcError(request, outcome);
        const supported = supportedFrom(outcome.data);
        if (supported === undefined) return legacy();
        const mutual = modern.find((v) => supported.includes(v));
        // MCP spec 2026-07-28, "Basic > Versioning": retry once with a revision from `supported`, even the one
        // just refused when the server lists it (its refusal may not have been about the version we sent).
        if (mutual !== undefined && attempt === 0) {
          version = mutual;
          continue;
        }
        const legacyShared = supported.some((v) =>
          (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(v),
        );
        if (pin === 'auto' && mutual === undefined && legacyShared) return legacy();
        throw noCommonVersion(request.server, 'server/discover', offered(pin, modern), supported);
      }
      case 'timeout':
        if (request.probe === 'http') throw timedOut(request, request.timeoutMs);
        return legacy();
      case 'closed':
      case 'send-failed': {
        if (request.probe === 'http' && outcome.kind === 'send-failed') return httpFailure(outcome, legacy);
        if (pin !== 'auto') throw notModern(request, pin);
        // The process died on the probe (some servers end on any request before `initialize`): start a
        // new one and go straight to `initialize` on it.
        await wire.close();
        return { wire: new Wire(request.createTransport(), request.wireHooks), prior: { kind: 'legacy' } };
      }
    }
  }
  throw noCommonVersion(request.server, 'server/discover', offered(pin, modern), undefined);
}

/** One `server/discover` at `version`, answered, refused, unanswered or cut off. */
function probeOnce(
  wire: Wire,
  answers: ProbeAnswers,
  version: string,
  request: NegotiationRequest,
  bound: number,
): Promise<Outcome> {
  probes += 1;
  const id = `${PROBE_ID_PREFIX}${probes}`;
  const message: JSONRPCMessage = {
    jsonrpc: '2.0',
    id,
    method: 'server/discover',
    params: {
      // MCP spec 2026-07-28, "Basic > Versioning": every request carries the envelope, the probe too.
      _meta: {
        [PROTOCOL_VERSION_META_KEY]: version,
        [CLIENT_INFO_META_KEY]: request.clientInfo,
        [CLIENT_CAPABILITIES_META_KEY]: request.capabilities,
      },
    },
  };
  return new Promise<Outcome>((resolve) => {
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      answers.forget(id);
      if (outcome.kind === 'timeout' && !request.signal?.aborted)
        wire.failed(message, `no answer within ${bound} ms`);
      resolve(outcome);
    };
    const onAbort = () => settle({ kind: 'timeout' });
    const timer = setTimeout(() => settle({ kind: 'timeout' }), bound);
    request.signal?.addEventListener('abort', onAbort, { once: true });
    // The signal may have fired while the transport started.
    if (request.signal?.aborted) return settle({ kind: 'timeout' });
    answers.await(id, settle);
    wire.send(message).catch((error: unknown) => settle(sendFailure(error, request.probe)));
  });
}

/**
 * The probe's id space on the wire: the answer of the probe awaited, if any; any other `probe-` answer (to
 * a probe given up on) is late, and dropped by the wire.
 */
class ProbeAnswers implements Correlator {
  readonly #waiting = new Map<string, (outcome: Outcome) => void>();

  await(id: string, settle: (outcome: Outcome) => void): void {
    this.#waiting.set(id, settle);
  }

  forget(id: string): void {
    this.#waiting.delete(id);
  }

  answer(id: string, message: Record<string, unknown>): boolean {
    const settle = this.#waiting.get(id);
    if (settle === undefined) return false;
    if ('result' in message) settle({ kind: 'result', result: message.result });
    else {
      const error = (message.error ?? {}) as { code?: unknown; data?: unknown };
      const code = typeof error.code === 'number' ? error.code : -32603;
      settle({ kind: 'error', code, data: error.data });
    }
    return true;
  }

  progress(): boolean {
    return false;
  }

  closed(): void {
    for (const settle of [...this.#waiting.values()]) settle({ kind: 'closed' });
  }
}

/**
 * How long one probe waits for its answer, the connect timeout being one deadline for the whole connect:
 * over HTTP what is left of it (no answer is an error there); over stdio the probe's own bound, but at most
 * half of what is left, so that a legacy server, which may ignore the probe (MCP spec 2026-07-28,
 * "Transports > stdio > Backward Compatibility"), has the other half for `initialize`.
 */
export function probeBound(request: NegotiationRequest, deadline: number): number {
  const left = Math.max(0, Math.ceil(deadline - performance.now()));
  if (request.probe !== 'stdio') return left;
  return Math.min(request.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS, Math.floor(left / 2));
}

/**
 * A failed probe `send()`. Our Streamable HTTP transport rejects a 2026-era request's 4xx JSON-RPC error
 * answer with kind `jsonrpc` rather than delivering it in-band; that is read as the error response it
 * carries (MCP spec 2026-07-28, "Transports > Streamable HTTP > Backward Compatibility": a modern server's
 * -32022, or a legacy server's own error such as server-everything's 400 -32000 with `id: null`, which the
 * classification then treats as legacy). 401/403 stay failures: OAuth owns them.
 */
function sendFailure(error: unknown, probe: EraProbe | undefined): Outcome {
  if (
    probe === 'http' &&
    error instanceof MCPCallError &&
    error.kind === 'jsonrpc' &&
    error.code !== undefined &&
    refusedWithoutAuth(error.status)
  )
    return { kind: 'error', code: error.code, data: error.data };
  return { kind: 'send-failed', error };
}

/** `result` when it has the shape of a `DiscoverResult` (MCP spec 2026-07-28, "Server > Discover"). */
function discoverResult(result: unknown): DiscoverResult | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const { supportedVersions, capabilities } = result as Record<string, unknown>;
  if (!Array.isArray(supportedVersions) || !supportedVersions.every((v) => typeof v === 'string'))
    return undefined;
  if (typeof capabilities !== 'object' || capabilities === null) return undefined;
  return result as DiscoverResult;
}

/** Every revision offered under `pin`, for the error that names both sides. */
function offered(pin: MCPProtocolVersionOption, modern: readonly string[]): string[] {
  return pin === 'auto' ? [...modern, ...LEGACY_PROTOCOL_VERSIONS] : offeredVersions(pin);
}

function notModern(request: NegotiationRequest, pin: string): MCPCallError {
  return new MCPCallError(
    'protocol',
    `the server does not speak MCP ${pin} (it answered server/discover the legacy way)`,
    {
      server: request.server,
      method: 'server/discover',
    },
  );
}

function timedOut(request: NegotiationRequest, timeoutMs: number): MCPCallError {
  return new MCPCallError('timeout', `timed out after ${timeoutMs} ms`, {
    server: request.server,
    method: 'server/discover',
    timeoutMs,
  });
}

function jsonRpcError(request: NegotiationRequest, outcome: { code: number; data: unknown }): MCPCallError {
  return new MCPCallError('jsonrpc', `server returned JSON-RPC error ${outcome.code}`, {
    server: request.server,
    method: 'server/discover',
    code: outcome.code,
    data: outcome.data,
  });
}

/**
 * An HTTP probe answered without a usable response (MCP spec 2026-07-28, "Transports > Streamable HTTP >
 * Backward Compatibility" and "Basic > Versioning > Backward Compatibility": anything but a recognized modern
 * error identifies a legacy server): a legacy server when an answer came, whatever it was; the connect's
 * error when none did, or when it was OAuth's (see {@link answeredOverHttp}).
 */
function httpFailure(outcome: { error: unknown }, legacy: () => Negotiated): Negotiated {
  if (answeredOverHttp(outcome.error)) return legacy();
  throw outcome.error;
}

/**
 * Whether a failed HTTP exchange got an answer from the server: any status but 401 and 403 (which OAuth
 * owns; `initialize` would meet them too), whatever its body (a JSON-RPC error, HTML, nothing); a 2xx body
 * that is no JSON-RPC answer (kind `protocol`); or a 2xx response stream that closed before the response
 * (`reissue`: the answer began). Not: no connection (refused, no such host), a timeout, an abort, the SDK's
 * `UnauthorizedError`.
 */
export function answeredOverHttp(error: unknown): boolean {
  if (!(error instanceof MCPCallError)) return false;
  // A failure of this client's own authorization (a refused client registration, a token request the
  // authorization server refused) carries that server's status, not the MCP server's answer to the probe.
  if (error.cause instanceof OAuthClientFlowError || error.cause instanceof OAuthError) return false;
  if (error.status !== undefined) return error.status !== 401 && error.status !== 403;
  return error.kind === 'protocol' || (error.kind === 'transport' && error.reissue === true);
}

/** A 4xx that is not about authorization (401 and 403 belong to OAuth): the server refused the request. */
function refusedWithoutAuth(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}
