/**
 * What a command needs once it runs (its server, the MCP layer), loaded then rather than when the command
 * is registered: `agentwire --help` loads no MCP code and starts fast.
 */

import type { MCPClient, MCPRequestOptions } from '../mcp/index.js';
import type { CliIo } from './io.js';
import type { ServerOptionValues } from './server-flags.js';

/** The functions that find a command's server and run work against it. */
export async function serverWork() {
  const [{ commandTarget }, { withServer, requestOptions }] = await Promise.all([
    import('./config-targets.js'),
    import('./with-servers.js'),
  ]);
  return { commandTarget, withServer, requestOptions };
}

/**
 * The shape of the commands that ask one server one thing (`tasks`, `prompts`, `resources`, `skills`): finds
 * the server `options` name, connects it, runs `request` with the command's request options (`--timeout`,
 * the interrupt signal), and always disconnects it.
 * @throws what `commandTarget` and `withServer` throw (a usage error; a `ReportedFailure`, already printed).
 */
export async function requestServer<T>(
  options: ServerOptionValues,
  io: CliIo,
  request: (client: MCPClient, requestOptions: MCPRequestOptions) => Promise<T>,
): Promise<T> {
  const { commandTarget, withServer, requestOptions } = await serverWork();
  const target = await commandTarget(options);
  return withServer(target, io, (client) => request(client, requestOptions(target, io)));
}
