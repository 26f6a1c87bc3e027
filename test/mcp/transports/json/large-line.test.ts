import { describe, expect, it } from 'vitest';
import {
  LargeLineParser,
  type LargeLineResult,
  LONG_STRING_BYTES,
} from '../../../../src/mcp/transports/json/large-line.js';
import { LongJsonString } from '../../../../src/mcp/transports/json/long-string.js';
import { completeEscapesEnd } from '../../../../src/mcp/transports/json/unescape.js';

/** A whole line given as chunks, fed to a {@link LargeLineParser} at once. */
function parseLargeLine(chunks: readonly Buffer[], minStringBytes = LONG_STRING_BYTES): LargeLineResult {
  const parser = new LargeLineParser(minStringBytes);
  for (const chunk of chunks) parser.push(chunk);
  return parser.finish();
}

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

/** The value read from `chunks` with strings of at least `min` bytes taken as long, or 'not JSON'. */
function read(chunks: readonly Buffer[], min?: number): unknown {
  const result = parseLargeLine(chunks, min);
  return result.ok ? result.value : 'not JSON';
}

describe('LargeLineParser: where strings start and end', () => {
  it('reads short and long strings alike, wherever the chunks are cut', () => {
    const value = { short: 'ab', long: 'x'.repeat(10), esc: `q"${'y'.repeat(8)}` };
    for (const chunks of cuttings(Buffer.from(JSON.stringify(value))))
      expect(read(chunks, 10)).toEqual(value);
  });

  it('does not end a string at an escaped quote, nor after an escaped backslash', () => {
    const value = ['\\', '"', `\\"${'z'.repeat(300)}`, 'tail'];
    for (const chunks of cuttings(Buffer.from(JSON.stringify(value))))
      expect(read(chunks, 100)).toEqual(value);
  });

  it('says not JSON for a line that ends inside a string, even right after a backslash', () => {
    expect(parseLargeLine([Buffer.from(`{"a":"${'u'.repeat(20)}`)], 1)).toEqual({ ok: false });
    expect(parseLargeLine([Buffer.from('{"a":"ends with an escape\\')], 1)).toEqual({ ok: false });
  });

  it('follows long plain runs with memchr and still sees the escapes after them', () => {
    const value = [`${'p'.repeat(5000)}"${'q'.repeat(5000)}`, 'r'.repeat(600)];
    for (const size of [1, 100, 4096, 65536]) {
      expect(read(split(Buffer.from(JSON.stringify(value)), size), 500)).toEqual(value);
    }
  });

  it('ignores empty chunks, also right after a chunk that ends with a backslash', () => {
    const value = { t: `a"b${'c'.repeat(40)}` };
    const bytes = Buffer.from(JSON.stringify(value));
    const at = bytes.indexOf(0x5c) + 1;
    const chunks = [bytes.subarray(0, at), Buffer.alloc(0), bytes.subarray(at)];
    expect(read(chunks, 16)).toEqual(value);
  });
});

describe('LongJsonString', () => {
  /** The string read from `escaped` (JSON string content as written) cut at `cuts`. */
  function long(escaped: string, cuts: number[] = []): LongJsonString {
    const bytes = Buffer.from(escaped);
    const string = new LongJsonString();
    let from = 0;
    for (const at of [...cuts, bytes.length]) {
      string.push(bytes.subarray(from, at));
      from = at;
    }
    string.end();
    return string;
  }

  it('gives what JSON.parse gives, however the escaped bytes are cut', () => {
    const escaped = JSON.stringify(TRICKY).slice(1, -1);
    const length = Buffer.byteLength(escaped);
    for (let at = 0; at <= length; at++) expect(long(escaped, [at]).value()).toBe(TRICKY);
    expect(
      long(
        escaped,
        Array.from({ length }, (_, i) => i),
      ).value(),
    ).toBe(TRICKY);
  });

  it('joins a surrogate pair written as two \\u escapes cut anywhere', () => {
    const escaped = 'x\\ud83d\\ude00y';
    for (let at = 0; at <= escaped.length; at++) expect(long(escaped, [at]).value()).toBe('x😀y');
  });

  it('is invalid for a bad escape, a raw control character next to escapes, or an unfinished escape', () => {
    expect(long('bad \\q escape').valid).toBe(false);
    expect(long('raw \n newline \\n').valid).toBe(false);
    expect(long('short \\u12').valid).toBe(false);
    expect(long('ends with \\').valid).toBe(false);
    expect(long('fine \\u00e9').valid).toBe(true);
  });

  it('keeps the 1 MiB piece it could not read as written, for reports', () => {
    expect(long('ok \\u00e9 then \\q bad').written()).toBe('ok \\u00e9 then \\q bad');
    expect(long('ok \\u00e9').written()).toBe('ok é');
  });

  it('decodes and unescapes a 3 MiB string in 1 MiB batches, pieces cut inside escapes included', () => {
    const text = 'line "one"\n\tline two \\ é 😀\n'.repeat(100_000);
    const bytes = Buffer.from(JSON.stringify(text).slice(1, -1));
    expect(bytes.length).toBeGreaterThan(3 * 1024 * 1024);
    const string = new LongJsonString();
    for (const piece of split(bytes, 65_537)) string.push(piece);
    string.end();
    expect(string.valid).toBe(true);
    expect(string.value() === text).toBe(true);
  });
});

describe('completeEscapesEnd', () => {
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
      expect(read(split(bytes, size), 64)).toEqual(message);
    }
  });

  it('keeps the key order of an object whose key is a long string', () => {
    const value = { a: 1, ['k'.repeat(70)]: 2, z: 3 };
    const parsed = read([Buffer.from(JSON.stringify(value))], 64) as Record<string, number>;
    expect(Object.keys(parsed)).toEqual(['a', 'k'.repeat(70), 'z']);
  });

  it('keeps a "__proto__" key as data, never as a prototype', () => {
    // The long key makes the reader rebuild the object: where a plain assignment would set the prototype.
    const line = `{"__proto__":{"polluted":"${'p'.repeat(80)}"},"${'k'.repeat(80)}":1}`;
    const parsed = read([Buffer.from(line)], 64) as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.hasOwn(parsed, '__proto__')).toBe(true);
    expect(parsed).toEqual(JSON.parse(line));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('ignores a trailing carriage return, as the ordinary path does', () => {
    const line = `${JSON.stringify({ t: 'c'.repeat(100) })}\r`;
    expect(read(split(Buffer.from(line), 7), 64)).toEqual({ t: 'c'.repeat(100) });
  });

  it('decodes a multi-byte character cut between chunks', () => {
    const text = 'é😀中'.repeat(40);
    const bytes = Buffer.from(JSON.stringify({ text }));
    for (let at = 1; at < bytes.length; at++) {
      expect(read([bytes.subarray(0, at), bytes.subarray(at)], 64)).toEqual({ text });
    }
  });

  it('says not JSON where JSON.parse would, and reads lines without long strings too', () => {
    expect(read([Buffer.from('{"a":"short"}')], 64)).toEqual({ a: 'short' });
    expect(read([Buffer.from(`{"a":"${'x'.repeat(80)}"`)], 64)).toBe('not JSON');
    expect(read([Buffer.from(`{"a":"${'x'.repeat(80)}`)], 64)).toBe('not JSON');
    expect(read([Buffer.from(`{"a":"${'x'.repeat(80)}\\q"}`)], 64)).toBe('not JSON');
    expect(read([Buffer.from(`{"a":"${'x'.repeat(80)}\n\\n"}`)], 64)).toBe('not JSON');
    expect(read([Buffer.from(`not json "${'x'.repeat(80)}"`)], 64)).toBe('not JSON');
  });

  it('accepts a raw control character in a long string without escapes (the one leniency)', () => {
    expect(read([Buffer.from(`{"a":"${'x'.repeat(80)}\t"}`)], 64)).toEqual({ a: `${'x'.repeat(80)}\t` });
  });

  it('gives back the exact text of a line that is not JSON, as the ordinary path decodes it', () => {
    const lines = [
      `{"a":"${'x'.repeat(80)}","b":"${'y\\"'.repeat(30)}" broken}\r`,
      `{"unterminated":"${'é'.repeat(60)}`,
      `{"bad escape":"${'z'.repeat(70)}\\q"}`,
      Buffer.concat([Buffer.from(`["${'w'.repeat(70)}`), Buffer.from([0xff, 0xc3]), Buffer.from('"] tail')]),
    ].map((line) => (typeof line === 'string' ? Buffer.from(line) : line));
    for (const bytes of lines) {
      for (const size of [1, 3, 16, bytes.length]) {
        const parser = new LargeLineParser(32);
        for (const chunk of split(bytes, size)) parser.push(chunk);
        expect(parser.finish()).toEqual({ ok: false });
        const expected = bytes.toString('utf8').replace(/\r$/, '');
        expect(parser.text()).toBe(expected);
      }
    }
  });

  it('reports the long strings of a line that is not JSON re-escaped: the same JSON, maybe other escapes', () => {
    const parser = new LargeLineParser(16);
    parser.push(Buffer.from(`{"a":"${'\\u00e9'.repeat(10)}", oops}`));
    expect(parser.finish()).toEqual({ ok: false });
    expect(parser.text()).toBe(`{"a":"${'é'.repeat(10)}", oops}`);
  });

  it('reads a skeleton nested as deep as JSON.parse allows without overflowing the stack', () => {
    const depth = 100_000;
    const line = `{"deep":${'['.repeat(depth)}${']'.repeat(depth)},"text":"${'t'.repeat(100)}"}`;
    const result = parseLargeLine([Buffer.from(line)], 64);
    expect(result.ok).toBe(true);
    expect((result as { value: { text: string } }).value.text).toBe('t'.repeat(100));
  });

  it('takes a line in 300 000 one-byte chunks before a long string', () => {
    const value = { list: Array.from({ length: 100_000 }, (_, i) => i % 10), text: 'q'.repeat(50_000) };
    const bytes = Buffer.from(JSON.stringify(value));
    expect(read(split(bytes, 1))).toEqual(value);
  });

  it('gives a 3 MiB text with escapes back intact in 64 KiB chunks', () => {
    const text = `${'line "one"\n\tline two \\ é\n'.repeat(110_000)}`;
    const bytes = Buffer.from(
      JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }] } }),
    );
    expect(bytes.length).toBeGreaterThan(3 * 1024 * 1024);
    const parsed = read(split(bytes, 65536)) as { result: { content: { text: string }[] } };
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
      expect(read(pieces, 16)).toEqual(JSON.parse(text));
      if (/"(?:[^"\\]|\\.){16,}"/.test(text)) compared++;
    }
    expect(compared).toBeGreaterThan(150);
  });
});
