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

describe('SseDecoder maxEventBytes', () => {
  const oversized = new Error('over');
  const decoderWith = (maxEventBytes: number, events: string[]) =>
    new SseDecoder({
      onEvent: (event) => events.push(event.data),
      maxEventBytes,
      oversized: () => oversized,
    });
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('throws once an unfinished event passes the bound, across chunks', () => {
    const events: string[] = [];
    const decoder = decoderWith(100, events);
    decoder.push(bytes(`data: ${'a'.repeat(60)}\n`));
    expect(() => decoder.push(bytes(`data: ${'a'.repeat(60)}\n`))).toThrow(oversized);
    expect(events).toEqual([]);
  });

  it('counts from the last blank line, also one split across chunks, so a long stream of small events passes', () => {
    const events: string[] = [];
    const decoder = decoderWith(100, events);
    for (let i = 0; i < 50; i++) {
      decoder.push(bytes(`: keep-alive\n\ndata: ${'b'.repeat(40)}\n`));
      decoder.push(bytes('\n'));
    }
    expect(events).toEqual(Array.from({ length: 50 }, () => 'b'.repeat(40)));
  });

  it('throws for an event over the bound that arrived whole in one chunk', () => {
    const events: string[] = [];
    const decoder = decoderWith(100, events);
    expect(() => decoder.push(bytes(`data: ${'c'.repeat(200)}\n\n`))).toThrow(oversized);
    expect(events).toEqual([]);
  });
});
