/**
 * What a client notices in the background (a server printing non-JSON lines on stdout, a notification it
 * should not have sent, a broken event stream) reaches the person at the terminal as a `warning:` line on
 * stderr, instead of being dropped because nobody listened.
 * The transports already rate-limit repeated reports.
 */
import { type MCPClient, MCPError } from '../mcp/index.js';
import { type CliIo, singleLine } from './io.js';

/**
 * Prints `client`'s `error` events and warning-level `log` events as `warning:` lines on stderr, until the
 * returned function is called: once the command's outcome is known, what the teardown stirs up (a
 * cancellation that can no longer be sent because the connection is being closed) is not news.
 */
export function reportDiagnostics(client: MCPClient, io: CliIo): () => void {
  let active = true;
  const oneLine = (text: string) => {
    const line = singleLine(text);
    return line.length > 300 ? `${line.slice(0, 300)}…` : line;
  };
  client.on('error', (error) => {
    if (!active) return;
    const message = oneLine(error.message);
    // agentwire's errors name their server (the `server` field says which); others get the name here.
    const named =
      error instanceof MCPError && error.server === client.name
        ? message
        : `MCP server "${client.name}": ${message}`;
    io.stderr(`warning: ${named}\n`);
  });
  client.on('log', (entry) => {
    if (active && entry.level === 'warn') io.stderr(`warning: ${oneLine(entry.message)}\n`);
  });
  return () => {
    active = false;
  };
}
