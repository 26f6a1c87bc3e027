import { describe, expect, it } from 'vitest';
import {
  base64DecodedSize,
  formatBytes,
  renderCallToolResult,
  renderContentBlock,
} from '../../../src/mcp/adapter/content.js';
import type { CallToolResult, ContentBlock } from '../../../src/mcp/protocol/types.js';

const b64 = (bytes: number) => Buffer.alloc(bytes, 7).toString('base64');

describe('renderContentBlock', () => {
  const cases: [string, ContentBlock, string][] = [
    ['text verbatim', { type: 'text', text: 'line 1\n  line 2 ' }, 'line 1\n  line 2 '],
    [
      'an image as a placeholder with decoded size',
      { type: 'image', data: b64(25088), mimeType: 'image/png' },
      '[image content: image/png, 24.5 KB]',
    ],
    [
      'audio as a placeholder',
      { type: 'audio', data: b64(300), mimeType: 'audio/wav' },
      '[audio content: audio/wav, 300 B]',
    ],
    [
      'a big image in MB',
      { type: 'image', data: b64(3 * 1024 * 1024), mimeType: 'image/jpeg' },
      '[image content: image/jpeg, 3.0 MB]',
    ],
    [
      'a text resource inlined under its URI',
      {
        type: 'resource',
        resource: { uri: 'file:///tmp/notes.md', mimeType: 'text/markdown', text: '# Notes' },
      },
      '[resource: file:///tmp/notes.md, text/markdown]\n# Notes',
    ],
    [
      'a text resource without mime type',
      { type: 'resource', resource: { uri: 'mem://a', text: 'hello' } },
      '[resource: mem://a]\nhello',
    ],
    [
      'a blob resource as a placeholder',
      {
        type: 'resource',
        resource: { uri: 'file:///x.bin', mimeType: 'application/octet-stream', blob: b64(2048) },
      },
      '[resource: file:///x.bin, application/octet-stream, 2.0 KB]',
    ],
    [
      'a resource link by name, URI and mime type',
      { type: 'resource_link', uri: 'test://static/resource/1', name: 'Resource 1', mimeType: 'text/plain' },
      '[resource link: Resource 1, test://static/resource/1, text/plain]',
    ],
    ['an unknown block type by name', { type: 'hologram', data: 'x' }, '[unsupported content: hologram]'],
  ];
  it.each(cases)('renders %s', (_label, block, expected) => {
    expect(renderContentBlock(block)).toBe(expected);
  });
});

describe('renderCallToolResult', () => {
  it('joins blocks with newlines, keeping order', () => {
    const result: CallToolResult = {
      content: [
        { type: 'text', text: 'Here is the chart:' },
        { type: 'image', data: b64(25088), mimeType: 'image/png' },
        {
          type: 'resource',
          resource: { uri: 'file:///tmp/notes.md', mimeType: 'text/markdown', text: '# Notes' },
        },
      ],
    };
    expect(renderCallToolResult(result)).toBe(
      'Here is the chart:\n[image content: image/png, 24.5 KB]\n[resource: file:///tmp/notes.md, text/markdown]\n# Notes',
    );
  });

  it('returns structuredContent itself when there are no content blocks', () => {
    const structured = { temperature: 22, conditions: 'Sunny' };
    expect(renderCallToolResult({ content: [], structuredContent: structured })).toBe(structured);
  });

  it('appends structuredContent as JSON when every block is binary', () => {
    const result: CallToolResult = {
      content: [{ type: 'image', data: b64(10), mimeType: 'image/gif' }],
      structuredContent: { width: 1, height: 2 },
    };
    expect(renderCallToolResult(result)).toBe('[image content: image/gif, 10 B]\n{"width":1,"height":2}');
  });

  it('does not repeat structuredContent when a text block is present', () => {
    const result: CallToolResult = {
      content: [{ type: 'text', text: '{"a":1}' }],
      structuredContent: { a: 1 },
    };
    expect(renderCallToolResult(result)).toBe('{"a":1}');
  });

  it('renders an empty result as an empty string', () => {
    expect(renderCallToolResult({ content: [] })).toBe('');
  });
});

describe('sizes', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.0 KB'],
    [1536, '1.5 KB'],
    [1048576, '1.0 MB'],
  ])('formats %i bytes as %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it.each([0, 1, 2, 3, 4, 5, 100, 1001])('computes the decoded size of %i bytes from base64', (bytes) => {
    expect(base64DecodedSize(b64(bytes))).toBe(bytes);
  });

  it('ignores line breaks inside base64', () => {
    const wrapped = b64(300).replace(/(.{76})/g, '$1\n');
    expect(base64DecodedSize(wrapped)).toBe(300);
  });
});
