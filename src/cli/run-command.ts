/**
 * What `agentwire run` does once its command line is parsed (registered in commands/run.ts, which loads this
 * file only when the command runs).
 */
import { DEFAULT_MAX_TURNS } from '../agent/defaults.js';
import { Agent, AgentAbortError, AgentError, samplingHandler } from '../agent/index.js';
import type { ImageOptions } from '../providers/index.js';
import { commandTargets } from './config-targets.js';
import type { CommandContext } from './context.js';
import { formElicitationHandler } from './form-elicitation.js';
import { HeldOutput } from './held-output.js';
import { cliModelError, modelBaseUrl } from './model-errors.js';
import { builtinTools, runModel } from './run-options.js';
import { type EventPrinter, JsonLinesPrinter, RunPrinter } from './run-output.js';
import { agentHandle } from './run-servers.js';
import type { ServerListOptionValues } from './server-options.js';
import { permissionHook } from './tool-permission.js';
import { UsageError } from './usage-error.js';
import { withServers } from './with-servers.js';

/** The option values of `run`. */
export interface RunCommandOptions extends ServerListOptionValues {
  tools?: 'default';
  root?: string;
  model?: string;
  maxTurns?: number;
  prefix?: boolean;
  maxResultBytes?: number;
  modelIdleTimeout?: number;
  modelTimeout?: number;
  yes?: boolean;
  allowTool?: string[];
  maxConcurrentCalls?: number;
  toolSearchThreshold?: number;
  maxToolsPerRequest?: number;
  /** `false` with `--no-images`. */
  images?: boolean;
  maxImageBytes?: number;
  maxImageDimensionPx?: number;
  maxImagesPerRequest?: number;
  maxImageBytesPerRequest?: number;
  /** `--json`: the events as JSON lines (run-output.ts `JsonLinesPrinter`). */
  json?: boolean;
}

/** The `ImageOptions` the image flags give; empty when none is given. */
function imageOptions(options: RunCommandOptions): ImageOptions {
  const given = {
    sendImages: options.images === false ? false : undefined,
    maxImageBytes: options.maxImageBytes,
    maxImageDimensionPx: options.maxImageDimensionPx,
    maxImagesPerRequest: options.maxImagesPerRequest,
    maxImageBytesPerRequest: options.maxImageBytesPerRequest,
  };
  return Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
}

/**
 * Runs the agent on `prompt` with the servers and tools the options name, streaming its events.
 * @throws what the run's failure is (reported already when it comes from within the servers' lifetime:
 *   `ReportedFailure`).
 */
export async function runAgentCommand(prompt: string, options: RunCommandOptions, context: CommandContext) {
  if (prompt.trim() === '') throw new UsageError('the prompt is empty');
  const targets = await commandTargets(options);
  const tools = builtinTools(options.tools, options.root);
  const model = await runModel(options.model, process.env, imageOptions(options));
  // Checked before any server starts: a malformed base URL is a usage error, not a failed request later.
  const bounds = { maxTurns: options.maxTurns ?? DEFAULT_MAX_TURNS, baseUrl: modelBaseUrl(model.provider) };
  // The run's lines wait while a permission question is open on the terminal.
  const output = new HeldOutput(context.io);
  const approve = permissionHook(context.io, options, output);
  const agent = new Agent({
    model,
    tools,
    ...(approve && { approve }),
    maxTurns: options.maxTurns ?? DEFAULT_MAX_TURNS,
    ...(options.maxResultBytes === undefined ? {} : { maxToolResultBytes: options.maxResultBytes }),
    ...(options.modelIdleTimeout === undefined ? {} : { modelIdleTimeoutMs: options.modelIdleTimeout }),
    ...(options.modelTimeout === undefined ? {} : { modelRequestTimeoutMs: options.modelTimeout }),
    ...(options.toolSearchThreshold !== undefined && { toolSearchThreshold: options.toolSearchThreshold }),
    ...(options.maxToolsPerRequest !== undefined && { maxToolsPerRequest: options.maxToolsPerRequest }),
  });
  const printer: EventPrinter = options.json
    ? new JsonLinesPrinter(output.io, (error) => cliModelError(error, bounds))
    : new RunPrinter(output.io);
  const { signal } = context.io;
  // Servers may ask the run's model for completions (sampling/createMessage), as with Agent.withMcpServer*.
  // A server's form is asked on the terminal with the run's lines held meanwhile (form-elicitation.ts).
  const clientOptions = {
    onSampling: samplingHandler(model),
    ...(context.io.askField && { onElicitation: formElicitationHandler(context.io, output) }),
    ...(options.maxConcurrentCalls !== undefined && { maxConcurrentCalls: options.maxConcurrentCalls }),
  };
  await withServers(
    targets,
    context.io,
    async (servers) => {
      let offered = tools.length;
      for (const [index, client] of servers.clients().entries()) {
        // One prefix layer: the agent's (`--prefix`), over the servers' own tool names.
        const handle = agentHandle(client, targets[index]!);
        await agent.addMcpServer(handle, options.prefix ? { prefix: true } : {});
        offered += handle.getTools().length;
      }
      if (offered === 0) {
        context.io.stderr(
          'warning: the model has no tools: add servers (--stdio, --url, --config) or --tools default\n',
        );
      }
      for await (const event of agent.prompt(prompt, signal ? { signal } : {})) printer.print(event);
      printer.endLine();
    },
    {
      clientOptions,
      mapError: (error) => {
        printer.endLine();
        // Ctrl-C while the servers were still connecting (`interrupted while connecting`) is the run's interrupt.
        const interrupted = signal?.aborted && !(error instanceof AgentError && error.kind === 'aborted');
        return interrupted ? new AgentAbortError(signal.reason) : cliModelError(error, bounds);
      },
    },
  );
}
