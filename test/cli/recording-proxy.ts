/**
 * A pass-through HTTP proxy in front of a real MCP server that notes the JSON-RPC method of every message
 * it has forwarded, so that a test can act once the server has been sent a given request (a signal sent
 * once `tools/call` is on its way, not after a guessed delay). Bodies and responses (SSE streams included)
 * are forwarded unchanged; a client that goes away aborts the forwarded request. Always `close()` it.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running proxy. */
export interface RecordingProxy {
  /** The target URL with the proxy's origin: `http://127.0.0.1:<proxy port><target path>`. */
  url: string;
  /** JSON-RPC methods of the messages forwarded so far, in order (responses, which have none, left out). */
  methods: string[];
  /** Stops listening and drops every open connection. */
  close: () => Promise<void>;
}

/** Starts a proxy on a free port of 127.0.0.1 in front of `target` (an http:// URL). */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const methods: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const forward = request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => {
        if (res.headersSent) res.destroy();
        else res.writeHead(502).end();
      });
      // The client went away (an aborted call, a closed stream): so does the forwarded request.
      res.on('close', () => forward.destroy());
      forward.end(body, () => methods.push(...methodsOf(body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}${upstream.search}`,
    methods,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The methods of a POST body: one JSON-RPC message or a batch; nothing for other bodies. */
function methodsOf(body: Buffer): string[] {
  if (body.length === 0) return [];
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages.flatMap((message) =>
      typeof message === 'object' && message !== null && typeof message.method === 'string'
        ? [message.method]
        : [],
    );
  } catch {
    return [];
  }
}
