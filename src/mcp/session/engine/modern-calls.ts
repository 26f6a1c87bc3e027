/**
 * `tools/call` on a 2026-07-28 connection without the SDK's request funnel: one leg per JSON-RPC request
 * (calls.ts sends it, with the `_meta` envelope), the `resultType` read here, and multi round-trip requests
 * (MCP spec 2026-07-28, "Basic > Patterns > Multi Round-Trip Requests") fulfilled through the client's own
 * handlers, then re-sent with `inputResponses` and `requestState` echoed byte for byte, on a new id.
 *
 * It fails with the same error values as the SDK's funnel (its input-required driver), so that `toCallError`
 * (error-mapping.ts) makes the same {@link MCPCallError}s of them:
 * - a result that is not an object, a non-string `resultType`, or an `input_required` with neither
 *   `inputRequests` nor `requestState`: `SdkError` `InvalidResult`; an unknown `resultType`: `UnsupportedResultType`
 *   ("Basic > Responses > ResultType": unrecognized values are invalid). An absent `resultType` means
 *   `complete` (same section: the bridge for earlier-revision servers); the funnel is stricter there;
 * - an embedded request of another method, or one the client has no handler for: `InvalidResult` /
 *   `CapabilityNotSupported`, and nothing more is sent ("Client > Sampling / Roots > Error Handling": the
 *   server is not waiting for an answer);
 * - a handler that throws or rejects: {@link InputHandlerError} (its error as `cause`), at once, and nothing
 *   more is sent, for the same reason;
 * - more than `maxRounds` input-required answers: `InputRequiredRoundsExceeded` `{ rounds }`.
 *
 * Timeouts: `timeoutMs` bounds each leg (each JSON-RPC request), `maxTotalTimeoutMs` the whole call, legs
 * and the handlers' time together, exactly (one timer over the flow). The caller's signal and progress
 * carry over to every leg; each round is reported as progress `{ progress: round, message }`, as the SDK does.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  type Client,
  PROTOCOL_VERSION_META_KEY,
  SdkError,
  SdkErrorCode,
  type StandardSchemaV1,
} from '@modelcontextprotocol/client';
import { isRecord } from '../../../core/json.js';
import type { CreateMessageParams, ElicitParams, Implementation } from '../../protocol/types.js';
import type { AgentwireTransport } from '../../transports/transport.js';
import type { RequestOptions } from '../request-options.js';
import { abortError, checkResult, type DirectRequests, type ModernWire } from '../wire/calls.js';
import { InputHandlerError } from './input-handler-error.js';
import type { RequestAnswerers } from './sdk-wiring.js';
import { applyElicitationDefaults } from './server-requests.js';

/** Default bound on input-required rounds per request: the SDK's (`inputRequired.maxRounds`). */
export const DEFAULT_MAX_INPUT_ROUNDS = 10;

/** Pause before a round that carries only `requestState` (nothing else slows such a loop), as the SDK. */
const STATE_ONLY_ROUND_PAUSE_MS = 250;

const INPUT_METHODS = new Set(['elicitation/create', 'sampling/createMessage', 'roots/list']);

/**
 * How direct requests travel on this 2026-07-28 connection: the envelope the SDK's funnel attaches
 * (`Client._outboundMetaEnvelope`: the agreed version, our client info, the capabilities we declared), and
 * stream-close cancellation where the transport has a stream per request (Streamable HTTP).
 */
export function modernWire(
  sdk: Client,
  clientInfo: Implementation,
  capabilities: Record<string, object>,
  transport: AgentwireTransport,
): ModernWire {
  return {
    envelope: {
      [PROTOCOL_VERSION_META_KEY]: sdk.getNegotiatedProtocolVersion(),
      [CLIENT_INFO_META_KEY]: clientInfo,
      [CLIENT_CAPABILITIES_META_KEY]: capabilities,
    },
    streamCloseCancels: transport.hasPerRequestStream === true,
  };
}

/** What a leg's result was. */
type Leg<T> =
  | { kind: 'complete'; value: T }
  | { kind: 'task'; raw: Record<string, unknown> }
  | { kind: 'input_required'; inputRequests: Record<string, unknown>; requestState?: string };

/** What a multi-round call needs besides the request. */
export interface InputRoundsContext {
  server: string;
  answerers: RequestAnswerers;
  /** At most this many input-required answers are fulfilled; the next fails the call. */
  maxRounds: number;
  /** The request's extra HTTP headers (`Mcp-Param-*`), the same on every leg. */
  headers?: Record<string, string> | undefined;
  /**
   * Takes over a `resultType: "task"` answer (the tasks extension, tasks-modern.ts) and resolves with the
   * task's final result; without it such an answer is `UnsupportedResultType`.
   */
  onTask?:
    | ((created: Record<string, unknown>, signal: AbortSignal | undefined) => Promise<unknown>)
    | undefined;
}

/**
 * Sends `method` through `direct` and follows `input_required` answers until a complete result.
 * @throws (rejects with) the SDK's error values listed in the file comment, and those of calls.ts.
 */
export async function requestWithInputRounds<T>(
  direct: DirectRequests,
  method: string,
  params: Record<string, unknown>,
  schema: StandardSchemaV1<unknown, T>,
  options: RequestOptions,
  context: InputRoundsContext,
): Promise<T> {
  const cap = options.maxTotalTimeoutMs;
  const capper = cap === undefined ? undefined : new AbortController();
  const timer =
    cap === undefined
      ? undefined
      : setTimeout(
          () =>
            capper?.abort(
              new SdkError(SdkErrorCode.RequestTimeout, 'Maximum total timeout exceeded', {
                maxTotalTimeout: cap,
              }),
            ),
          cap,
        );
  const signal =
    capper && options.signal
      ? AbortSignal.any([options.signal, capper.signal])
      : (capper?.signal ?? options.signal);
  const legOptions: RequestOptions = { ...options, signal, maxTotalTimeoutMs: undefined };
  const decode = (result: unknown) => decodeLeg(method, schema, result, context.onTask !== undefined);
  try {
    let leg = await direct.send(method, params, legOptions, decode, context.headers);
    for (let round = 1; leg.kind === 'input_required'; round++) {
      if (round > context.maxRounds) throw roundsExceeded(method, context.maxRounds, leg);
      options.onprogress?.({
        progress: round,
        message: `Fulfilling input required by '${method}' (round ${round})`,
      });
      const entries = Object.entries(leg.inputRequests);
      const responses =
        entries.length > 0
          ? await fulfil(entries, context, signal)
          : await pause(STATE_ONLY_ROUND_PAUSE_MS, signal);
      const retry = {
        ...params,
        ...(responses !== undefined && { inputResponses: responses }),
        ...(leg.requestState !== undefined && { requestState: leg.requestState }),
      };
      leg = await direct.send(method, retry, legOptions, decode, context.headers);
    }
    // The hook's result is what `schema` checks: the task's final result of the same request.
    if (leg.kind === 'task') return (await context.onTask?.(leg.raw, signal)) as T;
    return leg.value;
  } finally {
    clearTimeout(timer);
  }
}

/** A 2026-07-28 result read by its `resultType`; a complete one checked by `schema`. */
function decodeLeg<T>(
  method: string,
  schema: StandardSchemaV1<unknown, T>,
  raw: unknown,
  takesTasks = false,
): Leg<T> | Promise<Leg<T>> {
  if (!isRecord(raw)) throw invalid(`Invalid result for ${method}: not an object`, { method });
  const type = raw.resultType;
  if (type === undefined || type === 'complete') {
    const checked = checkResult(method, schema, raw);
    return checked instanceof Promise
      ? checked.then((value) => ({ kind: 'complete', value }))
      : { kind: 'complete', value: checked };
  }
  if (typeof type !== 'string')
    throw invalid(`Invalid result for ${method}: non-string resultType`, { method, resultType: type });
  if (type === 'task' && takesTasks) return { kind: 'task', raw };
  if (type !== 'input_required') {
    throw new SdkError(
      SdkErrorCode.UnsupportedResultType,
      `Unsupported result type '${type}' for ${method}`,
      {
        resultType: type,
        method,
      },
    );
  }
  const inputRequests = isRecord(raw.inputRequests) ? raw.inputRequests : {};
  const state = raw.requestState;
  if (Object.keys(inputRequests).length === 0 && typeof state !== 'string') {
    throw invalid(
      `Invalid result for ${method}: input_required carries neither inputRequests nor requestState ` +
        '(every input_required result must include at least one of the two)',
      { method, violation: 'input-required-missing-both' },
    );
  }
  return typeof state === 'string'
    ? { kind: 'input_required', inputRequests, requestState: state }
    : { kind: 'input_required', inputRequests };
}

/**
 * Answers a round's embedded requests concurrently through the client's handlers; the first failure aborts
 * the others. Rejects at once when `signal` fires, whether or not a handler heeds its own signal.
 */
export async function fulfil(
  entries: [string, unknown][],
  context: InputRoundsContext,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown>> {
  const round = new AbortController();
  const onAbort = () => round.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) round.abort(signal.reason);
  // The first handler failure is the call's error as it is, not an abort made of it (that would read as a
  // timeout); set before the round is aborted, so `stopped` rejects with it.
  let failed: { error: unknown } | undefined;
  const stopped = new Promise<never>((_, reject) => {
    const onStop = () => reject(failed ? failed.error : abortError(round.signal.reason));
    round.signal.addEventListener('abort', onStop, { once: true });
  });
  stopped.catch(() => {});
  try {
    const answers = entries.map(async ([key, entry]) => {
      try {
        return [key, await answer(key, entry, context, round.signal)] as const;
      } catch (error) {
        failed ??= { error };
        round.abort(error);
        throw error;
      }
    });
    return Object.fromEntries(await Promise.race([Promise.all(answers), stopped]));
  } finally {
    signal?.removeEventListener('abort', onAbort);
    if (!round.signal.aborted) round.abort(new Error('the round ended'));
  }
}

/** One embedded request answered by its handler (the SDK's checks and messages). */
async function answer(
  key: string,
  entry: unknown,
  context: InputRoundsContext,
  signal: AbortSignal,
): Promise<unknown> {
  if (!isRecord(entry) || typeof entry.method !== 'string') {
    throw invalid(
      `Invalid input request '${key}': each inputRequests entry must be an embedded request object with a method`,
      { key },
    );
  }
  const method = entry.method;
  if (!INPUT_METHODS.has(method)) {
    throw invalid(
      `Invalid input request '${key}': '${method}' is not an embedded request the 2026-07-28 revision defines ` +
        '(expected elicitation/create, sampling/createMessage, or roots/list)',
      { key, method },
    );
  }
  const { answerers, server } = context;
  const params = isRecord(entry.params) ? entry.params : {};
  const handlerContext = { server, signal };
  const handled = async <R>(run: () => R | Promise<R>): Promise<R> => {
    try {
      return await run();
    } catch (error) {
      // Aborted by the round (another handler failed, the call's signal fired): that reason stands.
      if (signal.aborted) throw error;
      throw new InputHandlerError(key, method, error);
    }
  };
  if (method === 'elicitation/create' && answerers.onElicitation) {
    const { onElicitation } = answerers;
    const elicit = params as unknown as ElicitParams;
    return applyElicitationDefaults(elicit, await handled(() => onElicitation(elicit, handlerContext)));
  }
  if (method === 'sampling/createMessage' && answerers.onSampling) {
    const { onSampling } = answerers;
    return handled(() => onSampling(params as unknown as CreateMessageParams, handlerContext));
  }
  if (method === 'roots/list' && answerers.roots)
    return { roots: answerers.currentRoots?.() ?? answerers.roots };
  throw new SdkError(
    SdkErrorCode.CapabilityNotSupported,
    `Cannot fulfil input request '${key}': no handler is registered for '${method}' on this client. ` +
      'Declare the corresponding capability and register a handler, or handle input_required results manually.',
    { key, method },
  );
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<undefined> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal.reason));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(undefined);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function roundsExceeded(
  method: string,
  maxRounds: number,
  leg: Extract<Leg<unknown>, { kind: 'input_required' }>,
): SdkError {
  return new SdkError(
    SdkErrorCode.InputRequiredRoundsExceeded,
    `Multi-round-trip request '${method}' still required input after ${maxRounds} rounds (inputRequired.maxRounds)`,
    {
      rounds: maxRounds,
      lastResult: {
        inputRequests: leg.inputRequests,
        ...(leg.requestState !== undefined && { requestState: leg.requestState }),
      },
    },
  );
}

function invalid(message: string, data: Record<string, unknown>): SdkError {
  return new SdkError(SdkErrorCode.InvalidResult, message, data);
}
