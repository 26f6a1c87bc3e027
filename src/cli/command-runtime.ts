/**
 * What a command needs once it runs (its server, the MCP layer), loaded then rather than when the command
 * is registered: `agentwire --help` loads no MCP code and starts fast.
 */

/** The functions that find a command's server and run work against it. */
export async function serverWork() {
  const [{ commandTarget }, { withServer, requestOptions }] = await Promise.all([
    import('./config-targets.js'),
    import('./with-servers.js'),
  ]);
  return { commandTarget, withServer, requestOptions };
}
