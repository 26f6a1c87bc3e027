/**
 * URL-mode elicitation in the CLI (MCP spec 2025-11-25 and 2026-07-28, "Client > Elicitation > URL Mode":
 * show the URL and its host, and ask for consent before the user goes there). On a terminal the user is
 * asked on stderr and answers on stdin; without one the elicitation is declined, so a -32042 fails the
 * command with an error naming the server and the URL rather than waiting for an answer that cannot come.
 */
import { createInterface } from 'node:readline/promises';
import type { MCPUrlElicitation, MCPUrlElicitationAction } from '../mcp/index.js';
import type { CliIo } from './io.js';

/** The question shown for `elicitation` from `server`, ending in the yes/no prompt. */
export function consentQuestion(server: string, elicitation: MCPUrlElicitation): string {
  let host = '';
  try {
    host = ` (host ${new URL(elicitation.url).host})`;
  } catch {
    // The server sent something that is not a URL: show it as it came, with no host line.
  }
  const message = elicitation.message === '' ? '' : `  ${elicitation.message}\n`;
  return (
    `MCP server "${server}" asks you to open a URL:\n${message}  ${elicitation.url}${host}\n` +
    'Open it in your browser and finish there, then continue? [y/N] '
  );
}

/** The client option answering URL elicitations through `io.confirm`; declines when there is none. */
export function urlElicitationHandler(io: CliIo) {
  return async (
    elicitation: MCPUrlElicitation,
    context: { server: string; signal: AbortSignal },
  ): Promise<MCPUrlElicitationAction> => {
    if (!io.confirm) return 'decline';
    const yes = await io.confirm(consentQuestion(context.server, elicitation), context.signal);
    return yes ? 'accept' : 'decline';
  };
}

/**
 * Asks `question` on stderr and reads one line from stdin: `y` or `yes` (any case) is consent, anything else,
 * or the end of stdin, a refusal. `signal` ends the wait.
 */
export async function confirmOnTerminal(question: string, signal?: AbortSignal): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  const ended = new Promise<string>((resolve) => rl.once('close', () => resolve('')));
  try {
    const answer = await Promise.race([rl.question(question, signal ? { signal } : {}), ended]);
    return /^\s*y(es)?\s*$/i.test(answer);
  } finally {
    rl.close();
  }
}
