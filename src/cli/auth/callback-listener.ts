/**
 * The loopback redirect listener of `agentwire auth login` (RFC 8252 §7.3, "Loopback Interface
 * Redirection"): an HTTP server on 127.0.0.1 that receives the browser's redirect from the authorization
 * server at `/callback`, answers it with a short page, and hands the redirect URL (code, `state`, `iss`) to
 * the login. A redirect whose `state` is not the login's is answered 400 and ignored: it is not the
 * browser's answer to this login (RFC 6749 §10.12).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { AuthLoginError } from './errors.js';

/** A listening callback server. */
export interface CallbackListener {
  /** `http://127.0.0.1:<port>/callback`: the redirect URI to register and send. */
  readonly redirectUrl: string;
  /**
   * Resolves with the redirect that carries `state`. Bounded by `timeoutMs` and `signal`.
   * @throws AuthLoginError `timeout` after `timeoutMs`, `interrupted` when `signal` fires.
   */
  waitForCallback(state: string, timeoutMs: number, signal?: AbortSignal): Promise<URL>;
  /** Stops listening and closes every connection. Idempotent. */
  close(): Promise<void>;
}

const PAGE_OK =
  '<!doctype html><title>agentwire</title><p>agentwire received the authorization. You can close this window.</p>';
const PAGE_REFUSED =
  '<!doctype html><title>agentwire</title><p>The authorization server did not authorize agentwire. See the terminal.</p>';

/**
 * Listens on 127.0.0.1:`port` (0: any free port).
 * @throws AuthLoginError `listen` when the port cannot be bound (in use, not permitted).
 */
export async function startCallbackListener(port = 0): Promise<CallbackListener> {
  let deliver: ((url: URL) => boolean) | undefined;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback') return void res.writeHead(404).end();
    const accepted = deliver?.(url) ?? false;
    const refused = url.searchParams.has('error');
    res.writeHead(accepted ? (refused ? 400 : 200) : 400, { 'content-type': 'text/html; charset=utf-8' });
    res.end(accepted && !refused ? PAGE_OK : PAGE_REFUSED);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => reject(new AuthLoginError('listen', { port, cause: error })));
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  let closing: Promise<void> | undefined;
  return {
    redirectUrl: `http://127.0.0.1:${bound}/callback`,
    waitForCallback: (state, timeoutMs, signal) =>
      new Promise<URL>((resolve, reject) => {
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          deliver = undefined;
          settle();
        };
        const onAbort = () =>
          finish(() => reject(new AuthLoginError('interrupted', { cause: signal?.reason })));
        const timer = setTimeout(
          () => finish(() => reject(new AuthLoginError('timeout', { timeoutMs }))),
          timeoutMs,
        );
        if (signal?.aborted) return onAbort();
        signal?.addEventListener('abort', onAbort, { once: true });
        deliver = (url) => {
          if (url.searchParams.get('state') !== state) return false;
          finish(() => resolve(url));
          return true;
        };
      }),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      return closing;
    },
  };
}
