/**
 * What the CLI adds to a failure so that a person need not dig out its cause or the next step: one-line
 * explanations (an HTML error page where an MCP endpoint was expected, `https` to a plain-HTTP port, a
 * whole command line in a config entry's `command`) and the `hint: …` lines that say what to type next (the
 * login command for a server that answered 401, `--input` for a VS Code `${input:ID}` without a value).
 * Each is read from the error's fields, never its message.
 */
import { RegistrationRejectedError } from '@modelcontextprotocol/client';
import { MCPCallError, MCPConfigError } from '../mcp/index.js';
import { loginHint } from './auth/stored-login.js';
import type { ServerTarget } from './server-options.js';
import { UrlConsentUnavailableError } from './url-consent.js';

/** The hint lines for `error` (no newline); none for most errors. */
export function failureHints(error: unknown): string[] {
  if (error instanceof MCPConfigError && error.variable?.startsWith('input:')) {
    const id = error.variable.slice('input:'.length);
    return [`hint: give it with --input ${id}=<value> (on a terminal it is asked for)`];
  }
  if (unregistrable(error) !== undefined) {
    return [
      'hint: if the server takes a static token, give it with --header "Authorization: Bearer <token>" ' +
        '(or in the config entry\'s "headers"); no login is needed then',
    ];
  }
  return loginHint(error);
}

/**
 * The registration refusal of an `auth login` whose authorization server answered Dynamic Client
 * Registration (RFC 7591) with an empty body: most often no OAuth at all there (a server with no
 * metadata, whose default registration endpoint does not exist).
 */
function unregistrable(error: unknown): RegistrationRejectedError | undefined {
  if (!(error instanceof MCPCallError) || !(error.cause instanceof RegistrationRejectedError))
    return undefined;
  return error.cause.body.trim() === '' ? error.cause : undefined;
}

/**
 * The `hint:` lines `tools` prints for a server's failure, for the commands that list many servers
 * (`servers`, `configs`): each names its server (`hint: files: give it with --input root=<value> …`), one
 * line each, newline-terminated; empty when there is none. For a 401, call `checkOAuthOffers` first.
 */
export function serverHints(name: string, error: unknown, targets: readonly ServerTarget[] = []): string {
  const lines = [...failureHints(error), ...spawnHint(error, targets).split('\n')].filter(
    (line) => line !== '',
  );
  return lines.map((line) => `hint: ${name}: ${line.slice('hint: '.length)}\n`).join('');
}

/** The reworded error line, when the failure is one of the above; `undefined` otherwise. */
export function explainedLine(error: unknown): string | undefined {
  if (!(error instanceof MCPCallError)) return undefined;
  const where = `MCP server "${error.server}": ${error.method ?? 'request'} failed`;
  if (error.kind === 'http' && isHtml(error.body)) {
    return `error: ${where}: the server answered HTTP ${error.status} with an HTML page, not MCP: is the URL its MCP endpoint (often …/mcp)?\n`;
  }
  const refused = unregistrable(error);
  if (refused !== undefined) {
    return (
      `error: ${where}: Dynamic Client Registration rejected (HTTP ${refused.status}) with an empty answer: the ` +
      'authorization server offers no client registration there, most likely as the server publishes no OAuth ' +
      'metadata (RFC 9728) at all\n'
    );
  }
  if (asksForForm(error)) {
    return `error: ${where}: the server asks for input through a form, and there is no terminal to answer it: run the command on a terminal\n`;
  }
  if (hasCode(error, 'ERR_SSL_WRONG_VERSION_NUMBER')) {
    return `error: ${where}: the server does not speak TLS on that port: is it a plain http:// server?\n`;
  }
  return undefined;
}

/** A `hint:` line for a spawn failure of a config entry whose `command` holds its arguments too. */
export function spawnHint(error: unknown, targets: readonly ServerTarget[]): string {
  if (!(error instanceof MCPCallError) || error.kind !== 'spawn') return '';
  const target = targets.find((t) => t.kind === 'config' && t.entry.name === error.server);
  if (target?.kind !== 'config' || target.entry.kind !== 'stdio') return '';
  const { command, args } = target.entry.server;
  const words = command.trim().split(/\s+/);
  if (words.length < 2 || (args ?? []).length > 0) return '';
  const [program, ...rest] = words;
  return `hint: "command" holds a whole command line: put "${program}" in "command" and ${JSON.stringify(rest)} in "args"\n`;
}

/**
 * Whether the server refused for want of the form-elicitation capability, which the CLI declares only on a
 * terminal (form-elicitation.ts): a 2026-07-28 -32021 whose `requiredCapabilities` name `elicitation`, or
 * an `elicitation/create` input request no handler answers.
 */
function asksForForm(error: MCPCallError): boolean {
  // A URL elicitation refused for want of a terminal is no form: failure.ts names its URL.
  if (error.cause instanceof UrlConsentUnavailableError) return false;
  if (error.kind === 'input_required') return error.inputMethod === 'elicitation/create';
  if (error.kind !== 'jsonrpc' || error.code !== MISSING_CLIENT_CAPABILITY) return false;
  const required = (error.data as { requiredCapabilities?: { elicitation?: unknown } } | undefined)
    ?.requiredCapabilities;
  return required?.elicitation !== undefined;
}

/** JSON-RPC code of a missing client capability (MCP spec 2026-07-28, "Error Codes"). */
const MISSING_CLIENT_CAPABILITY = -32021;

function isHtml(body: string | undefined): boolean {
  return body !== undefined && /^\s*<(!doctype html|html)\b/i.test(body);
}

/** Whether `error` or an error it was caused by has the Node error code `code`. */
function hasCode(error: unknown, code: string): boolean {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 8; depth += 1) {
    if ((cause as NodeJS.ErrnoException).code === code) return true;
    cause = cause.cause;
  }
  return false;
}
