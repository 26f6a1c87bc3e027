/**
 * Elicitation on one connection (MCP spec 2025-11-25 and 2026-07-28, "Client > Elicitation"): form and URL
 * `elicitation/create` routed to their handlers, the -32042 "URL elicitation required" error answered by
 * running the URL handler for each elicitation it lists and sending the request once more, and
 * `notifications/elicitation/complete` passed on for the elicitations the user accepted.
 */
import { type Client, ProtocolError } from '@modelcontextprotocol/client';
import { isRecord } from '../../../core/json.js';
import type { ElicitParams, ElicitResult } from '../../protocol/types.js';
import {
  applyElicitationDefaults,
  type MCPServerRequestHandlers,
  type MCPUrlElicitation,
} from './server-requests.js';

/** JSON-RPC error code of "URL elicitation required" (MCP spec 2025-11-25, "Elicitation > Error Handling"). */
export const URL_ELICITATION_REQUIRED = -32042;

/** An abort signal that never fires, for a request sent without one. */
const NEVER = new AbortController().signal;

/** The URL elicitations listed by a -32042 error's `data.elicitations`; `undefined` for any other error. */
export function requiredUrlElicitations(error: unknown): MCPUrlElicitation[] | undefined {
  if (!(error instanceof ProtocolError) || error.code !== URL_ELICITATION_REQUIRED) return undefined;
  const listed = isRecord(error.data) ? error.data.elicitations : undefined;
  if (!Array.isArray(listed)) return [];
  return listed.filter(isRecord).flatMap((entry) => {
    if (typeof entry.url !== 'string') return [];
    const message = typeof entry.message === 'string' ? entry.message : '';
    const id = typeof entry.elicitationId === 'string' ? { elicitationId: entry.elicitationId } : {};
    return [{ url: entry.url, message, ...id }];
  });
}

/** One connection's elicitation handling; see the file header. */
export class Elicitations {
  readonly #server: string;
  readonly #handlers: MCPServerRequestHandlers;
  /** Ids of accepted URL elicitations whose completion notification has not come. */
  readonly #pending = new Set<string>();

  constructor(server: string, handlers: MCPServerRequestHandlers) {
    this.#server = server;
    this.#handlers = handlers;
  }

  /**
   * Registers `elicitation/create` (when a handler exists) and `notifications/elicitation/complete` on the
   * SDK client. The SDK checks the mode against the declared capability before the handler runs.
   */
  register(sdk: Client): void {
    const { onElicitation, onUrlElicitation } = this.#handlers;
    if (onElicitation || onUrlElicitation) {
      sdk.setRequestHandler('elicitation/create', async (request, ctx) => {
        const result = await this.#answer(request.params as ElicitParams, ctx.mcpReq.signal);
        return result as never;
      });
    }
    if (onUrlElicitation) {
      sdk.setNotificationHandler('notifications/elicitation/complete', (notification) =>
        this.#complete(notification.params.elicitationId),
      );
    }
  }

  /**
   * `handlers` with `onElicitation` answering both modes as `elicitation/create` is answered here (for the
   * `input_required` rounds of the 2026-07-28 direct path, modern-calls.ts); unchanged without a handler.
   */
  answerers<T extends MCPServerRequestHandlers>(handlers: T): T {
    if (!handlers.onElicitation && !handlers.onUrlElicitation) return handlers;
    return {
      ...handlers,
      onElicitation: (params: ElicitParams, { signal }: { signal: AbortSignal }) =>
        this.#answer(params, signal),
    };
  }

  async #answer(params: ElicitParams, signal: AbortSignal): Promise<ElicitResult> {
    const { onElicitation, onUrlElicitation } = this.#handlers;
    if (params.mode === 'url' && onUrlElicitation) {
      const id = typeof params.elicitationId === 'string' ? { elicitationId: params.elicitationId } : {};
      const elicitation = { url: String(params.url), message: params.message, ...id };
      return { action: await this.#ask(elicitation, signal) };
    }
    // The SDK has refused a mode whose capability was not declared, so the handler for this one exists.
    if (!onElicitation) throw new ProtocolError(-32602, 'no handler for this elicitation mode');
    return applyElicitationDefaults(params, await onElicitation(params, { server: this.#server, signal }));
  }

  async #ask(elicitation: MCPUrlElicitation, signal: AbortSignal): Promise<ElicitResult['action']> {
    const action = await this.#handlers.onUrlElicitation!(elicitation, { server: this.#server, signal });
    if (action === 'accept' && elicitation.elicitationId !== undefined)
      this.#pending.add(elicitation.elicitationId);
    return action;
  }

  #complete(elicitationId: string): void {
    // MCP spec 2025-11-25: clients MUST ignore notifications for unknown or already completed ids.
    if (!this.#pending.delete(elicitationId)) return;
    this.#handlers.onUrlElicitationComplete?.(elicitationId, { server: this.#server });
  }

  /**
   * Runs `send`; when it fails with -32042 and a URL handler exists, asks the handler about each listed
   * elicitation in turn and, when every one was accepted, runs `send` once more (its failure, a second
   * -32042 included, is final: one retry, so a server that keeps asking cannot loop). A refusal, or no
   * handler, rethrows the -32042 error.
   */
  async retrying<T>(send: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
    try {
      return await send();
    } catch (error) {
      return this.recover(error, signal, send);
    }
  }

  /**
   * What {@link Elicitations.retrying} does once `send` has failed with `error`: for the lean path, which
   * runs no retry machinery until a failure asks for it.
   * @throws `error` unless it is a -32042 the handler accepted, then what the second `send` throws.
   */
  async recover<T>(error: unknown, signal: AbortSignal | undefined, send: () => Promise<T>): Promise<T> {
    const listed = requiredUrlElicitations(error);
    if (listed === undefined || listed.length === 0 || !this.#handlers.onUrlElicitation) throw error;
    for (const elicitation of listed) {
      if ((await this.#ask(elicitation, signal ?? NEVER)) !== 'accept') throw error;
      signal?.throwIfAborted();
    }
    return send();
  }
}
