import { describe, expect, it, vi } from 'vitest';
import {
  decodeLine,
  LineReader,
  type LineReaderOptions,
} from '../../../../src/mcp/transports/stdio/line-reader.js';

/** A reader that records lines (decoded) and overflow reports. */
function recorder(options: Partial<LineReaderOptions> = {}) {
  const lines: string[] = [];
  const overflows: number[] = [];
  const reader = new LineReader({
    onLine: (line) => lines.push(decodeLine(line)),
    onOverflow: (bytes) => overflows.push(bytes),
    ...options,
  });
  return { reader, lines, overflows };
}

describe('LineReader', () => {
  it('streams a line of at least largeLine.bytes to a sink, bytes held so far first', () => {
    const events: string[] = [];
    const { reader, lines } = recorder({
      largeLine: {
        bytes: 8,
        open: () => {
          events.push('open');
          return { push: (bytes) => events.push(bytes.toString()), end: () => events.push('end') };
        },
      },
    });
    for (const chunk of ['short\nlo', 'ng', 'er line', ' here\n1234567\n12345678\n'])
      reader.push(Buffer.from(chunk));
    expect(lines).toEqual(['short', '1234567']);
    expect(events).toEqual(['open', 'lo', 'ng', 'er line', ' here', 'end', 'open', '12345678', 'end']);
  });

  it('abandons the sink of a line that goes over maxLineBytes, and ends the last line at the stream end', () => {
    const events: string[] = [];
    const { reader, overflows } = recorder({
      maxLineBytes: 10,
      largeLine: {
        bytes: 4,
        open: () => {
          events.push('open');
          return { push: (bytes) => events.push(bytes.toString()), end: () => events.push('end') };
        },
      },
    });
    reader.push(Buffer.from('123456'));
    reader.push(Buffer.from('78901\n12345'));
    reader.end();
    expect(overflows).toEqual([11]);
    expect(events).toEqual(['open', '123456', 'open', '12345', 'end']);
  });

  it('splits lines across and within chunks', () => {
    const { reader, lines } = recorder();
    for (const chunk of ['{"a":', '1}\n{"b"', ':2}\n{"c":3}\n{"d"']) reader.push(Buffer.from(chunk));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(reader.bufferedBytes).toBe(4);
    reader.end();
    expect(lines.at(-1)).toBe('{"d"');
  });

  it('decodes a multi-byte UTF-8 character split across chunks, byte by byte', () => {
    const { reader, lines } = recorder();
    const bytes = Buffer.from('é😀€\n', 'utf8');
    for (const byte of bytes) reader.push(Buffer.from([byte]));
    expect(lines).toEqual(['é😀€']);
  });

  it('drops the carriage return of a CRLF line ending, and keeps empty lines', () => {
    const { reader, lines } = recorder();
    reader.push(Buffer.from('one\r\n\ntwo\r\n'));
    expect(lines).toEqual(['one', '', 'two']);
  });

  it("drops a line over maxLineBytes and reports it as soon as it crosses the limit ('drop')", () => {
    const { reader, lines, overflows } = recorder({ maxLineBytes: 8 });
    reader.push(Buffer.from('short\n0123'));
    reader.push(Buffer.from('456789'));
    expect(overflows).toEqual([10]); // the bytes seen when the limit was crossed: "0123" + "456789"
    reader.push(Buffer.from('ABC\nnext\n'));
    expect(lines).toEqual(['short', 'next']);
    expect(overflows).toEqual([10]);
    expect(reader.bufferedBytes).toBe(0);
  });

  it("keeps the first maxLineBytes bytes of an overlong line ('truncate')", () => {
    const { reader, lines, overflows } = recorder({ maxLineBytes: 4, overflow: 'truncate' });
    reader.push(Buffer.from('abcd'));
    reader.push(Buffer.from('efgh\nij\n'));
    expect(lines).toEqual(['abcd', 'ij']);
    expect(overflows).toEqual([8]); // the bytes seen when the limit was crossed: "abcd" + "efgh"
  });

  it('reads a 32 MiB line in 64 KiB chunks copying each byte once (linear work, not quadratic)', () => {
    const { reader, lines } = recorder();
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    // The work counted, not timed: a reader that joined what it held on every chunk would copy
    // 64 KiB × (1 + 2 + … + 512), about 8 GiB, here; a linear one copies the line once, at its end.
    const concat = vi.spyOn(Buffer, 'concat');
    try {
      for (let i = 0; i < 512; i++) reader.push(chunk);
      reader.push(Buffer.from('\n'));
      const copied = concat.mock.results.reduce((sum, { value }) => sum + (value as Buffer).length, 0);
      expect(lines[0]?.length).toBe(32 * 1024 * 1024);
      expect(copied).toBe(32 * 1024 * 1024);
    } finally {
      concat.mockRestore();
    }
  });
});
