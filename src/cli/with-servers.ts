/**
 * The one way every command reaches its servers (`tools`, `call`, `run`, `servers`): clients named apart,
 * gathered in an `MCPServers` (with each `--config` entry's tool filter), connected together under the
 * command's signal, and always disconnected.
 */
import {
  MCPCallError,
  type MCPClient,
  type MCPRequestOptions,
  type MCPServerConnectResult,
  MCPServers,
  type MCPToolFilter,
} from '../mcp/index.js';
import { checkOAuthOffers } from './auth/stored-login.js';
import { reportDiagnostics } from './diagnostics.js';
import { stderrLines } from './failure.js';
import { explainedLine, spawnHint } from './failure-explanations.js';
import { formElicitationHandler } from './form-elicitation.js';
import type { CliIo, ExitCodeValue } from './io.js';
import { ReportedFailure } from './reported-failure.js';
import { describeRunFailure } from './run-failure.js';
import { throwSetupFailures } from './run-setup-error.js';
import { type ClientExtras, createClient, type ServerTarget } from './server-options.js';
import { StderrTails } from './stderr-tail.js';
import { urlElicitationHandler } from './url-consent.js';
import { WireTrace } from './wire-trace.js';

/**
 * One client per target, in the targets' order, each with a distinct name: a `--config` server keeps its
 * entry's name (unique in its file, and the one the user wrote); the others take the name derived from the
 * command or host (`server-everything`, `localhost:3001`), with `-2`, `-3`, … when it is taken, because the
 * name is what tells servers apart in tool prefixes, events and errors. A target's `timeout` (ms) bounds
 * connecting and each tool call. Nothing is started yet.
 */
export function createClients(
  targets: readonly ServerTarget[],
  extra: ClientExtras = {},
  io?: CliIo,
  tails?: StderrTails,
): MCPClient[] {
  const taken = new Set(targets.flatMap((target) => (target.kind === 'config' ? [target.entry.name] : [])));
  // URL elicitation is declared where the user can be asked (a terminal). Elsewhere only on 2026-07-28
  // connections, whose handler refuses naming the URL; a 2025-era server's -32042 names it itself (see
  // url-consent.ts and failure.ts). Forms are declared only where they can be answered: on a terminal
  // (form-elicitation.ts), with the command's own handler when it gives one (`run`: its output held meanwhile).
  const handlers: ClientExtras = io
    ? {
        ...extra,
        onUrlElicitation: urlElicitationHandler(io),
        ...(!io.confirm && { urlElicitationEras: '2026-07-28' as const }),
        ...(io.askField && { onElicitation: extra.onElicitation ?? formElicitationHandler(io) }),
      }
    : extra;
  const trace = io && targets.some((target) => target.verbose) ? new WireTrace(io) : undefined;
  return targets.map((target) => {
    const tail = tails?.collector();
    let name = '';
    const stderr =
      trace || tail
        ? (line: string) => {
            tail?.stderr(line);
            trace?.stderr(name, line);
          }
        : undefined;
    const options = {
      ...handlers,
      ...(stderr && { stderr }),
      ...(trace && { onWireMessage: trace.message }),
    };
    let client = createClient(target, undefined, options);
    if (target.kind !== 'config') {
      const base = client.name;
      for (let n = 2; taken.has(client.name); n += 1) client = createClient(target, `${base}-${n}`, options);
      taken.add(client.name);
    }
    name = client.name;
    tail?.name(client.name);
    // `--timeout` bounds each request, as for `agentwire call`: here, every tool call the model makes.
    if (target.timeout !== undefined) client.setCallOptions({ timeoutMs: target.timeout });
    return client;
  });
}

/** Options of {@link withServers}. */
export interface WithServersOptions {
  /**
   * What a server that fails to connect does: `throw` (default) ends the command before `work` runs, with
   * that server's `MCPCallError`, or a `RunSetupError` holding every failure (in the targets' order) when
   * several fail; `report` runs `work` anyway, which reads each server's result (`agentwire servers`).
   */
  failures?: 'throw' | 'report';
  /** Print each client's background warnings on stderr (see diagnostics.ts). Default true. */
  diagnostics?: boolean;
  /** Options every client gets (`run`: `onSampling` answered with the run's model). Default none. */
  clientOptions?: ClientExtras;
  /**
   * Turns what the command throws into the error reported (`run`: an interrupt into the agent's abort),
   * and does what must come before the report (`run`: end a half-written line of model text).
   */
  mapError?: (error: unknown) => unknown;
}

/**
 * Connects a client per target ({@link createClients}) at once, runs `work`, and always disconnects them
 * all (stdio process trees ended, HTTP sessions deleted), whether `work` succeeds or throws, a server fails
 * to connect, or `io.signal` fires. `io.signal` is handed to every `connect()`, so an interrupt while
 * connecting stops the servers still starting at once; later, `work` hands it to its own requests (a tool
 * call, the agent's run). Every connect attempt is waited for (each is bounded by its connect timeout), so
 * that all the servers that fail are reported, not only the first. A `--config` target's `allowTools` /
 * `blockTools` filter what `servers.getTools()` offers.
 *
 * @param work receives the servers, in the targets' order, and each one's connect result.
 * A failure is printed on `io.stderr` the moment it is thrown (with, for a stdio server that timed out while
 * connecting, the last lines of its stderr), before the servers are disconnected; background warnings stop then too.
 *
 * @throws ReportedFailure (already printed, with the exit code; `cause` the error) for an `aborted`
 *   `MCPCallError` (`interrupted before connecting` / `interrupted while connecting`) when `io.signal` fires
 *   before or while connecting (nothing is started when it fired before); the failures as
 *   {@link WithServersOptions.failures} says; or what `work` throws.
 */
export async function withServers<T>(
  targets: readonly ServerTarget[],
  io: CliIo,
  work: (servers: MCPServers, results: readonly MCPServerConnectResult[]) => Promise<T>,
  options: WithServersOptions = {},
): Promise<T> {
  const { signal } = io;
  const servers = new MCPServers();
  const tails = new StderrTails();
  const quiet: (() => void)[] = [];
  let connecting = true;
  const report = (thrown: unknown) => {
    const error = options.mapError ? options.mapError(thrown) : thrown;
    const failure = describeRunFailure(error);
    const text = explainedLine(error) ?? failure.text;
    io.stderr(text + spawnHint(error, targets) + (connecting ? stderrBlock(error, tails) : ''));
    return { error, exitCode: failure.exitCode };
  };
  // Keys of an entry agentwire does not read (a misspelled `blockTools`, say) are told before it starts.
  for (const target of targets) {
    if (target.kind === 'config')
      for (const warning of target.warnings ?? []) io.stderr(`warning: ${warning.message}\n`);
  }
  // A connect failure is reported the moment it happens, not once its server is stopped.
  const reportedEarly = new Set<unknown>();
  for (const [index, client] of createClients(targets, options.clientOptions, io, tails).entries()) {
    if (options.diagnostics !== false) quiet.push(reportDiagnostics(client, io));
    if (options.failures !== 'report') {
      const onFailed = ({ error }: { error: MCPCallError }) => {
        // A 401 is reported once connecting is over, when its hint is known (checkOAuthOffers).
        if (!connecting || signal?.aborted || error.status === 401) return;
        reportedEarly.add(error);
        report(error);
      };
      client.on('connectFailed', onFailed);
      quiet.push(() => client.off('connectFailed', onFailed));
    }
    servers.add(client, filterOf(targets[index]!));
  }
  try {
    if (signal?.aborted) {
      throw new MCPCallError('aborted', 'interrupted before connecting', { cause: signal.reason });
    }
    // Ctrl-C while connecting is reported at once too: the servers still starting are stopped after.
    let interrupted: { error: unknown; exitCode: ExitCodeValue } | undefined;
    const onInterrupt = () => {
      if (connecting) interrupted = report(interruptedWhileConnecting(signal));
    };
    signal?.addEventListener('abort', onInterrupt, { once: true });
    quiet.push(() => signal?.removeEventListener('abort', onInterrupt));
    const results = await servers.connectAll(signal ? { signal } : {});
    if (interrupted) throw new ReportedFailure(interrupted.exitCode, interrupted.error);
    if (signal?.aborted) throw interruptedWhileConnecting(signal);
    if (options.failures !== 'report') {
      const failures = results.flatMap((result) => (result.ok ? [] : [result.error]));
      await checkOAuthOffers(failures);
      const left = failures.filter((error) => !reportedEarly.has(error));
      if (failures.length > 0 && left.length === 0) {
        const error = options.mapError ? options.mapError(failures[0]) : failures[0];
        throw new ReportedFailure(describeRunFailure(error).exitCode, error);
      }
      throwSetupFailures(left);
    }
    connecting = false;
    return await work(servers, results);
  } catch (thrown) {
    if (thrown instanceof ReportedFailure) throw thrown;
    // Reported now, before the servers are stopped (seconds, for one that ignores SIGTERM).
    const { error, exitCode } = report(thrown);
    throw new ReportedFailure(exitCode, error);
  } finally {
    for (const stop of quiet) stop();
    await servers.disconnectAll();
  }
}

/**
 * The lines a stdio server wrote to stderr before connecting to it timed out: the error itself carries no
 * stderr (the server did not exit), and they are often why it never answered (a prompt for input, a
 * banner on the wrong stream). A tool call that outlives `--timeout` is not explained by them.
 */
function stderrBlock(error: unknown, tails: StderrTails): string {
  if (!(error instanceof MCPCallError) || error.kind !== 'timeout') return '';
  if (error.stderrTail !== undefined && error.stderrTail.length > 0) return '';
  const tail = tails.of(error.server);
  return tail.length === 0 ? '' : stderrLines(tail);
}

/**
 * {@link withServers} for the one server of `tools` and `call`: `work` gets its client.
 * @throws as {@link withServers} does; a failed connect as the server's own `MCPCallError`.
 */
export function withServer<T>(
  target: ServerTarget,
  io: CliIo,
  work: (client: MCPClient) => Promise<T>,
): Promise<T> {
  return withServers([target], io, (servers) => work(servers.clients()[0]!));
}

function interruptedWhileConnecting(signal: AbortSignal | undefined): MCPCallError {
  return new MCPCallError('aborted', 'interrupted while connecting', { cause: signal?.reason });
}

function filterOf(target: ServerTarget): MCPToolFilter {
  return target.kind === 'config' ? target.entry : {};
}

/**
 * The options of one request other than a tool call (`resources/read`, `prompts/get`, …): bounded by
 * `--timeout` when given (else the client's connect timeout), cancelled by `io.signal`.
 */
export function requestOptions(target: ServerTarget, io: CliIo): MCPRequestOptions {
  return {
    ...(target.timeout === undefined ? {} : { timeoutMs: target.timeout }),
    ...(io.signal && { signal: io.signal }),
  };
}
