/** Issue 3, item 1 at the byte level: SSE decoding split at every possible byte. */
import { describe, expect, it } from 'vitest';
import { SseDecoder, type SseEvent } from '../../../../src/mcp/transports/http/sse-decoder.js';

const STREAM =
  '\uFEFF: comment\r\n' +
  'event: message\r\nid: 1\r\ndata: {"a":"é😀"}\r\n\r\n' +
  'data: line one\rdata: line two\r\r' +
  'retry: 250\nid: 2\nevent: ping\ndata: x\n\n' +
  'data:no-space\n\n' +
  'id: 3\n\n' +
  'data: unterminated';

const EXPECTED: SseEvent[] = [
  { event: 'message', id: '1', data: '{"a":"é😀"}' },
  { event: 'message', id: undefined, data: 'line one\nline two' },
  { event: 'ping', id: '2', data: 'x' },
  { event: 'message', id: undefined, data: 'no-space' },
];

function decode(chunks: Uint8Array[]): { events: SseEvent[]; retries: number[] } {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const decoder = new SseDecoder({ onEvent: (e) => events.push(e), onRetry: (ms) => retries.push(ms) });
  for (const chunk of chunks) decoder.push(chunk);
  decoder.end();
  return { events, retries };
}

describe('SseDecoder', () => {
  const bytes = Buffer.from(STREAM, 'utf8');

  it('decodes CR, LF and CRLF endings, comments, id/retry/event fields, a BOM, and drops an unterminated event', () => {
    expect(decode([bytes])).toEqual({ events: EXPECTED, retries: [250] });
  });

  it('gives the same events wherever the bytes are split, including inside UTF-8 characters and CRLF pairs', () => {
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(decode([bytes.subarray(0, cut), bytes.subarray(cut)]).events).toEqual(EXPECTED);
    }
  });

  it('gives the same events when fed one byte at a time', () => {
    expect(decode([...bytes].map((b) => Uint8Array.of(b))).events).toEqual(EXPECTED);
  });
});
