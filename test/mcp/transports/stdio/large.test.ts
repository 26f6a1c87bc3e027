import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { NonJsonLineInfo } from '../../../../src/mcp/transports/stdio/stdio-transport.js';
import { closeAll, connect, fixture } from './helpers.js';

afterEach(closeAll);

/** The fixture's `big` pattern: 1-, 2- and 4-byte UTF-8 characters plus characters JSON must escape. */
const PATTERN = 'aé😀"\n\\z';
const MiB = 1024 * 1024;

/** The text the fixture's `big` tool returns for `chars` UTF-16 units. */
function expectedText(chars: number): string {
  const text = PATTERN.repeat(Math.ceil(chars / PATTERN.length) + 1).slice(0, chars);
  return /[\uD800-\uDBFF]$/.test(text) ? `${text.slice(0, -1)}x` : text;
}

/** UTF-16 units whose JSON encoding is at least `bytes` long (8 units of the pattern encode to 14 bytes). */
const charsFor = (bytes: number): number => Math.ceil((bytes * 8) / 14);

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('StdioTransport with large messages', () => {
  for (const mib of [20, 40]) {
    it(`passes a ${mib} MiB tool result intact, multi-byte characters split across chunks included`, async () => {
      const client = await connect(fixture());
      const chars = charsFor(mib * MiB);
      const result = await client.callTool({ name: 'big', arguments: { chars } });
      const text = (result.content as { type: 'text'; text: string }[])[0]?.text ?? '';
      expect(Buffer.byteLength(JSON.stringify(text))).toBeGreaterThanOrEqual(mib * MiB);
      expect(text.length).toBe(chars);
      expect(result.structuredContent).toEqual({ sha256: sha256(expectedText(chars)), chars });
      expect(sha256(text)).toBe(sha256(expectedText(chars)));
    });
  }
});

describe('StdioTransport with large lines that are not messages', () => {
  it('reports a 5 MiB line that is not JSON exactly as it came, and keeps working', async () => {
    const reports: [string, NonJsonLineInfo][] = [];
    const transport = fixture(['--large-noise', String(5 * MiB)], {
      onNonJsonLine: (line, info) => reports.push([line, info]),
    });
    const client = await connect(transport);
    const result = await client.callTool({ name: 'echo', arguments: { text: 'after the noise' } });
    expect(result.content).toEqual([{ type: 'text', text: 'echo: after the noise' }]);
    // One noise line before each response: initialize, tools/call.
    expect(reports.map(([line, info]) => [line.length, line.slice(0, 10), info])).toEqual([
      [5 * MiB, '{"log":"yy', { reason: 'not_json', suppressed: 0 }],
      [5 * MiB, '{"log":"yy', { reason: 'not_json', suppressed: 0 }],
    ]);
  });
});

describe('StdioTransport sending large messages', () => {
  it('sends an 8 MiB request through the pipe, waiting for drain, and gets it echoed back', async () => {
    const client = await connect(fixture());
    const text = expectedText(8 * MiB);
    const result = await client.callTool({ name: 'echo', arguments: { text } });
    const echoed = (result.content as { type: 'text'; text: string }[])[0]?.text ?? '';
    expect(echoed.length).toBe(text.length + 'echo: '.length);
    expect(sha256(echoed)).toBe(sha256(`echo: ${text}`));
  });
});
