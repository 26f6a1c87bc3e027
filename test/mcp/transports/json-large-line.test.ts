import { describe, expect, it } from 'vitest';
import { parseLargeLine } from '../../../src/mcp/transports/json-large-line.js';
import { findLongStrings } from '../../../src/mcp/transports/json-long-strings.js';
import { completeEscapesEnd, unescapeJsonString } from '../../../src/mcp/transports/json-unescape.js';

/** `bytes` cut into pieces of `size` bytes (the last one shorter). */
function split(bytes: Buffer, size: number): Buffer[] {
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) pieces.push(bytes.subarray(i, i + size));
  return pieces;
}

/** Every way of cutting `bytes` in two, plus pieces of 1, 2, 3 and 7 bytes. */
function cuttings(bytes: Buffer): Buffer[][] {
  const all: Buffer[][] = [[bytes]];
  for (let at = 1; at < bytes.length; at++) all.push([bytes.subarray(0, at), bytes.subarray(at)]);
  for (const size of [1, 2, 3, 7]) all.push(split(bytes, size));
  return all;
}

const TRICKY = 'a"b\\c\n\té😀\u0001\u2028/ \\"\\\\"end';

describe('findLongStrings', () => {
  it('finds the strings of at least the asked length, wherever the chunks are cut', () => {
    const text = JSON.stringify({ short: 'ab', long: 'x'.repeat(10), esc: `q"${'y'.repeat(8)}` });
    const expected = [
      { bytes: 10, escaped: false, content: 'x'.repeat(10) },
      { bytes: 11, escaped: true, content: `q\\"${'y'.repeat(8)}` },
    ];
    for (const chunks of cuttings(Buffer.from(text))) {
      const found = findLongStrings(chunks, 10);
      const whole = Buffer.concat(chunks);
      const offsetOf = (p: { chunk: number; offset: number }) =>
        chunks.slice(0, p.chunk).reduce((sum, c) => sum + c.length, 0) + p.offset;
      expect(
        found?.map((s) => ({
          bytes: s.bytes,
          escaped: s.escaped,
          content: whole.toString('utf8', offsetOf(s.start), offsetOf(s.end)),
        })),
      ).toEqual(expected);
    }
  });

  it('does not end a string at an escaped quote, nor after an escaped backslash', () => {
    const text = JSON.stringify(['\\', '"', `\\"${'z'.repeat(300)}`, 'tail']);
    for (const chunks of cuttings(Buffer.from(text))) {
      expect(findLongStrings(chunks, 100)?.map((s) => s.bytes)).toEqual([304]);
    }
  });

  it('says undefined for a text that ends inside a string', () => {
    expect(findLongStrings([Buffer.from('{"a":"unterminated')], 1)).toBeUndefined();
    expect(findLongStrings([Buffer.from('{"a":"ends with an escape\\')], 1)).toBeUndefined();
  });

  it('follows long plain runs with memchr and still sees the escapes after them', () => {
    const content = `${'p'.repeat(5000)}\\"${'q'.repeat(5000)}`;
    const text = `["${content}","${'r'.repeat(600)}"]`;
    for (const size of [1, 100, 4096, 65536]) {
      expect(findLongStrings(split(Buffer.from(text), size), 500)?.map((s) => [s.bytes, s.escaped])).toEqual([
        [10002, true],
        [600, false],
      ]);
    }
  });
});

describe('unescapeJsonString', () => {
  it('gives what JSON.parse gives, however the escaped text is cut', () => {
    const escaped = JSON.stringify(TRICKY).slice(1, -1);
    for (let at = 0; at <= escaped.length; at++) {
      expect(unescapeJsonString([escaped.slice(0, at), escaped.slice(at)])).toBe(TRICKY);
    }
    expect(unescapeJsonString([...escaped])).toBe(TRICKY);
  });

  it('joins a surrogate pair written as two \\u escapes in different pieces', () => {
    expect(unescapeJsonString(['x\\ud83d', '\\ude00y'])).toBe('x😀y');
    expect(unescapeJsonString(['x\\ud8', '3d\\ude00'])).toBe('x😀');
  });

  it('throws SyntaxError for an invalid escape or a raw control character', () => {
    expect(() => unescapeJsonString(['bad \\q escape'])).toThrow(SyntaxError);
    expect(() => unescapeJsonString(['raw \n newline'])).toThrow(SyntaxError);
    expect(() => unescapeJsonString(['short \\u12'])).toThrow(SyntaxError);
  });

  it('cuts before a trailing escape start and before an unfinished \\u escape', () => {
    expect(completeEscapesEnd('ab\\')).toBe(2);
    expect(completeEscapesEnd('ab\\\\')).toBe(4);
    expect(completeEscapesEnd('ab\\\\\\')).toBe(4);
    expect(completeEscapesEnd('ab\\u12')).toBe(2);
    expect(completeEscapesEnd('ab\\u1234')).toBe(8);
    expect(completeEscapesEnd('ab\\\\u12')).toBe(7);
  });
});

describe('parseLargeLine', () => {
  const message = {
    jsonrpc: '2.0',
    id: 'aw-7',
    result: {
      content: [
        { type: 'text', text: `${TRICKY.repeat(20)}` },
        { type: 'image', data: 'QUJD'.repeat(30), mimeType: 'image/png' },
        { type: 'text', text: 'short' },
      ],
      structuredContent: { ['k'.repeat(70)]: 'long key', list: ['w'.repeat(64), 1, null, true] },
      isError: false,
    },
  };

  it('parses exactly as JSON.parse does, wherever the chunks are cut', () => {
    const bytes = Buffer.from(JSON.stringify(message));
    for (const size of [1, 2, 5, 64, 333, bytes.length]) {
      expect(parseLargeLine(split(bytes, size), 64)).toEqual(message);
    }
  });

  it('keeps the key order of an object whose key is a long string', () => {
    const value = { a: 1, ['k'.repeat(70)]: 2, z: 3 };
    const parsed = parseLargeLine([Buffer.from(JSON.stringify(value))], 64) as Record<string, number>;
    expect(Object.keys(parsed)).toEqual(['a', 'k'.repeat(70), 'z']);
  });

  it('keeps a "__proto__" key as data, never as a prototype', () => {
    // The long key makes the reader rebuild the object: where a plain assignment would set the prototype.
    const line = `{"__proto__":{"polluted":"${'p'.repeat(80)}"},"${'k'.repeat(80)}":1}`;
    const parsed = parseLargeLine([Buffer.from(line)], 64) as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
    expect(parsed).toEqual(JSON.parse(line));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('ignores a trailing carriage return, as the ordinary path does', () => {
    const line = `${JSON.stringify({ t: 'c'.repeat(100) })}\r`;
    expect(parseLargeLine(split(Buffer.from(line), 7), 64)).toEqual({ t: 'c'.repeat(100) });
  });

  it('decodes a multi-byte character cut between chunks', () => {
    const text = 'é😀中'.repeat(40);
    const bytes = Buffer.from(JSON.stringify({ text }));
    for (let at = 1; at < bytes.length; at++) {
      expect(parseLargeLine([bytes.subarray(0, at), bytes.subarray(at)], 64)).toEqual({ text });
    }
  });

  it('says undefined (the ordinary path decides) when nothing is long or the line is not JSON', () => {
    expect(parseLargeLine([Buffer.from('{"a":"short"}')], 64)).toBeUndefined();
    expect(parseLargeLine([Buffer.from(`{"a":"${'x'.repeat(80)}"`)], 64)).toBeUndefined();
    expect(parseLargeLine([Buffer.from(`{"a":"${'x'.repeat(80)}`)], 64)).toBeUndefined();
    expect(parseLargeLine([Buffer.from(`{"a":"${'x'.repeat(80)}\\q"}`)], 64)).toBeUndefined();
    expect(parseLargeLine([Buffer.from(`not json "${'x'.repeat(80)}"`)], 64)).toBeUndefined();
  });

  it('gives a 3 MiB text with escapes back intact in 64 KiB chunks', () => {
    const text = `${'line "one"\n\tline two \\ é\n'.repeat(110_000)}`;
    const bytes = Buffer.from(
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }] } }),
    );
    expect(bytes.length).toBeGreaterThan(3 * 1024 * 1024);
    const parsed = parseLargeLine(split(bytes, 65536)) as { result: { content: { text: string }[] } };
    expect(parsed.result.content[0]?.text === text).toBe(true);
  });
});

describe('parseLargeLine on generated values', () => {
  /** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const ALPHABET = [
    'a',
    'b',
    ' ',
    '"',
    '\\',
    '\n',
    '\u0001',
    'é',
    '中',
    '😀',
    '\u2028',
    '/',
    '{',
    '}',
    ':',
    ',',
  ];

  function value(next: () => number, depth: number): unknown {
    const kind = Math.floor(next() * (depth > 3 ? 4 : 7));
    if (kind === 0) return Math.floor(next() * 1e6) / 100;
    if (kind === 1) return [true, false, null][Math.floor(next() * 3)];
    if (kind <= 3) {
      const length = next() < 0.3 ? 20 + Math.floor(next() * 60) : Math.floor(next() * 10);
      let text = '';
      for (let i = 0; i < length; i++) text += ALPHABET[Math.floor(next() * ALPHABET.length)];
      return text;
    }
    if (kind <= 5) return Array.from({ length: Math.floor(next() * 4) }, () => value(next, depth + 1));
    const record: Record<string, unknown> = {};
    for (let i = Math.floor(next() * 4); i > 0; i--) record[String(value(next, 9))] = value(next, depth + 1);
    return record;
  }

  it('agrees with JSON.parse on 300 generated values cut at random', () => {
    const next = random(20261129);
    let compared = 0;
    for (let n = 0; n < 300; n++) {
      const text = JSON.stringify({ v: value(next, 0), w: value(next, 0), x: value(next, 0) });
      const bytes = Buffer.from(text);
      const pieces: Buffer[] = [];
      for (let at = 0; at < bytes.length; ) {
        const size = 1 + Math.floor(next() * 40);
        pieces.push(bytes.subarray(at, at + size));
        at += size;
      }
      const parsed = parseLargeLine(pieces, 16);
      if (parsed === undefined) continue; // no long string in this one: the ordinary path's business
      expect(parsed).toEqual(JSON.parse(text));
      compared++;
    }
    expect(compared).toBeGreaterThan(150);
  });
});
