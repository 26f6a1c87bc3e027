import { describe, expect, it } from 'vitest';
import { formatToolList, oneLine, schemaType } from '../../src/cli/tool-list.js';

describe('schemaType', () => {
  it.each([
    [{ type: 'string' }, 'string'],
    [{ type: ['string', 'null'] }, 'string | null'],
    [{ type: 'array', items: { type: 'number' } }, 'number[]'],
    [{ type: 'array', items: { enum: ['a', 'b'] } }, '("a" | "b")[]'],
    [{ type: 'array' }, 'any[]'],
    [{ enum: ['x', 1, null] }, '"x" | 1 | null'],
    [{ const: 'fixed' }, '"fixed"'],
    [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }, 'string | integer'],
    [{ oneOf: [{ $ref: '#/$defs/Point' }, { type: 'null' }] }, 'Point | null'],
    [{ $ref: '#/$defs/Point' }, 'Point'],
    [{}, 'any'],
    [true, 'any'],
  ])('names %j as %s', (schema, expected) => {
    expect(schemaType(schema)).toBe(expected);
  });
});

describe('oneLine', () => {
  it('keeps only the first line', () => {
    expect(oneLine('  Reads a file.\nMore detail here.\n')).toBe('Reads a file.');
  });

  it('cuts a long line at the end of its first sentence', () => {
    const text = `Read the complete contents of a file as text. ${'Handles many encodings and more. '.repeat(5)}`;
    expect(oneLine(text)).toBe('Read the complete contents of a file as text.');
  });

  it('cuts a long line without a sentence end at 100 characters with an ellipsis', () => {
    const text = 'word '.repeat(40);
    expect(oneLine(text)).toBe(`${'word '.repeat(19)}word…`);
    expect(oneLine(text)).toHaveLength(100);
  });
});

describe('formatToolList', () => {
  it('prints name, description and each parameter with its type and required marker', () => {
    const text = formatToolList([
      {
        name: 'search',
        description: 'Searches the index.\nSecond line is dropped.',
        inputSchema: {
          type: 'object',
          properties: {
            query: { type: 'string', description: 'What to look for' },
            limit: { type: 'integer' },
            filter: { $ref: '#/$defs/Filter' },
          },
          required: ['query'],
          $defs: { Filter: { type: 'object' } },
        },
      },
      { name: 'ping', inputSchema: { type: 'object' } },
    ]);
    expect(text).toBe(
      [
        'search: Searches the index.',
        '  query (string, required): What to look for',
        '  limit (integer)',
        '  filter (Filter)',
        'ping',
        '  (no parameters)',
        '',
      ].join('\n'),
    );
  });

  it('says so when the server has no tools', () => {
    expect(formatToolList([])).toBe('(no tools)\n');
  });
});
