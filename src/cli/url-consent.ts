/**
 * URL-mode elicitation in the CLI (MCP spec 2025-11-25 and 2026-07-28, "Client > Elicitation > URL Mode":
 * show the URL and its host, and ask for consent before the user goes there). On a terminal the user is
 * asked on stderr and answers on stdin. Without one, URL elicitation is declared on 2026-07-28 connections
 * only (`urlElicitationEras`), and the handler refuses with {@link UrlConsentUnavailableError} (server, URL):
 * the `input_required` round fails the call at once with it as the call error's `cause`, so the command names
 * the URL (never opening it) rather than the server's -32021. A 2025-era connection declares nothing, as
 * before: its -32042 names the URLs itself.
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

/** A URL elicitation refused because no terminal can ask the user for consent. */
export class UrlConsentUnavailableError extends Error {
  /** The server that asked. */
  readonly server: string;
  /** The URL it asked the user to open, as it came. */
  readonly url: string;

  constructor(server: string, url: string) {
    super(`MCP server "${server}" asks you to open ${url}, and there is no terminal to ask for consent`);
    this.name = 'UrlConsentUnavailableError';
    this.server = server;
    this.url = url;
  }
}

/**
 * The client option answering URL elicitations through `io.confirm`.
 * @throws UrlConsentUnavailableError when there is no terminal (`io.confirm` unset).
 */
export function urlElicitationHandler(io: CliIo) {
  return async (
    elicitation: MCPUrlElicitation,
    context: { server: string; signal: AbortSignal },
  ): Promise<MCPUrlElicitationAction> => {
    if (!io.confirm) throw new UrlConsentUnavailableError(context.server, elicitation.url);
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
