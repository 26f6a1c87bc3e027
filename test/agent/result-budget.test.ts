import { describe, expect, it } from 'vitest';
import { fitParts, fitText, omitBase64, readMoreHint } from '../../src/agent/result-budget.js';
import { systemPrompt } from '../../src/agent/system-prompt.js';
import type { ToolOutputMedia } from '../../src/core/tool-output.js';

describe('omitBase64', () => {
  it('replaces a long run, wrapped or not, and keeps short ones and ordinary text', () => {
    const data = Buffer.alloc(3_000, 9).toString('base64');
    const wrapped = data.match(/.{1,76}/g)!.join('\n');
    expect(omitBase64(`a ${data} b`)).toBe('a [base64 data omitted: 3,000 bytes] b');
    expect(omitBase64(`{"data":"${wrapped}"}`)).toBe('{"data":"[base64 data omitted: 3,000 bytes]"}');
    const short = Buffer.alloc(600, 1).toString('base64');
    expect(omitBase64(`x ${short} y ${'word '.repeat(400)}`)).toBe(`x ${short} y ${'word '.repeat(400)}`);
  });
});

describe('fitText', () => {
  it('leaves a result within budget as it is', () => {
    expect(fitText('small', 1_000, 'hint')).toBe('small');
  });

  it('cuts on character boundaries: multi-byte text stays valid UTF-8 and within budget', () => {
    const text = 'é€😀'.repeat(5_000);
    const fitted = fitText(text, 2_000, 'Ask for less.');
    expect(Buffer.byteLength(fitted)).toBeLessThanOrEqual(2_000);
    expect(fitted).not.toContain('\uFFFD');
    expect(fitted.startsWith('é€😀é€😀')).toBe(true);
    expect(fitted.endsWith('é€😀')).toBe(true);
    expect(fitted).toContain('[agentwire cut ');
    expect(fitted).toContain(' of 45,000 bytes here. Ask for less.]\n');
  });

  it('gives a budget too small for the notice the notice alone', () => {
    expect(fitText('x'.repeat(5_000), 10, 'Ask for less.')).toBe(
      '[agentwire cut 5,000 of 5,000 bytes here. Ask for less.]\n',
    );
  });
});

describe('readMoreHint', () => {
  it("names the tool's arguments that read a part", () => {
    const schema = { type: 'object', properties: { path: {}, offset: {}, limit: {} } };
    expect(readMoreHint('read_file', schema, 50_000)).toBe(
      'The result is over the 50,000 byte budget for tool results. To read the cut part, call read_file again with its "offset", "limit" arguments to ask for a part.',
    );
    expect(readMoreHint('echo', { type: 'object', properties: { text: {} } }, 1_000)).toBe(
      'The result is over the 1,000 byte budget for tool results. echo has no argument to ask for a part; narrow the request if you need the cut part.',
    );
  });
});

describe('systemPrompt', () => {
  it("puts the user's prompt first, then each server's bounded instructions", () => {
    const long = `${'a'.repeat(3_000)}\n${'b'.repeat(3_000)}`;
    const prompt = systemPrompt(
      'Be brief.',
      [
        ['one', 'Use tool x.'],
        ['two', long],
      ],
      1_000,
    );
    const [user, one, two] = prompt!.split('\n\n');
    expect(user).toBe('Be brief.');
    expect(one).toBe('Instructions from MCP server "one":\nUse tool x.');
    expect(two!.startsWith('Instructions from MCP server "two":\naaa')).toBe(true);
    expect(Buffer.byteLength(two!)).toBeLessThanOrEqual(
      1_000 + 'Instructions from MCP server "two":\n'.length,
    );
    expect(systemPrompt(undefined, [], 1_000)).toBeUndefined();
  });
});

describe('fitParts', () => {
  const image: ToolOutputMedia = {
    type: 'image',
    data: 'AAAA',
    mimeType: 'image/png',
    placeholder: '[image]',
  };

  it('keeps the parts in place when their texts fit, long base64 omitted', () => {
    const data = Buffer.alloc(3_000, 9).toString('base64');
    expect(
      fitParts(
        [{ type: 'text', text: `see ${data}` }, image, { type: 'text', text: 'done' }],
        'unused',
        1_000,
      ),
    ).toEqual([
      { type: 'text', text: 'see [base64 data omitted: 3,000 bytes]' },
      image,
      { type: 'text', text: 'done' },
    ]);
  });

  it('over budget, sends the fitted text followed by the media', () => {
    const parts = [{ type: 'text' as const, text: 'x'.repeat(2_000) }, image];
    expect(fitParts(parts, 'the fitted text', 1_000)).toEqual([
      { type: 'text', text: 'the fitted text' },
      image,
    ]);
  });
});
