/**
 * A raw 2026-07-28 `tools/call` over Streamable HTTP, as a client without an SDK sends it (MCP spec
 * 2026-07-28, "Transports > Streamable HTTP": the `_meta` envelope and the `Mcp-*` headers), for tests that
 * compare a gateway's answers byte for byte.
 */

/** The answer: status, headers (without `date`) and body text. */
export interface RawAnswer {
  status: number;
  headers: [string, string][];
  body: string;
}

/**
 * POSTs `tools/call` of `name` with `input` and request id `id` to `url` with bearer `token`; the envelope
 * names client `client`; the `Mcp-Name` header is `nameHeader` (default: `name`).
 */
export async function rawToolCall(
  url: string,
  token: string,
  call: { client: string; name: string; input: unknown; id: number; nameHeader?: string },
): Promise<RawAnswer> {
  const { client, name, input, id, nameHeader = name } = call;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': nameHeader,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name,
        arguments: input,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: client, version: '1.0.0' },
        },
      },
    }),
  });
  const headers = [...response.headers].filter(([header]) => header !== 'date');
  return { status: response.status, headers, body: await response.text() };
}
