import { describe, expect, it } from 'vitest';
import { renderEvent } from '../../src/agent/index.js';

const info = { toolCallId: 't1', name: 'get-sum', modelName: 'get-sum', source: 'everything', turn: 1 };

describe('renderEvent', () => {
  it('prints text as it arrives and ends a text turn with a newline', () => {
    expect(renderEvent({ type: 'text_delta', turn: 1, text: 'Hel' })).toBe('Hel');
    expect(
      renderEvent({
        type: 'turn_end',
        turn: 1,
        stopReason: 'end_turn',
        message: { role: 'assistant', content: [{ type: 'text', text: 'Hello' }] },
      }),
    ).toBe('\n');
  });

  it('prints each tool call, its progress and its result on one line', () => {
    expect(renderEvent({ type: 'tool_start', ...info, input: { a: 1, b: 2 } })).toBe(
      '▸ get-sum [everything] {"a":1,"b":2}\n',
    );
    expect(renderEvent({ type: 'tool_progress', ...info, progress: { progress: 2, total: 5 } })).toBe(
      '  … get-sum 2/5\n',
    );
    expect(
      renderEvent({
        type: 'tool_end',
        ...info,
        result: 'line one\nline two',
        isError: false,
        durationMs: 12,
      }),
    ).toBe('  ✓ get-sum (12 ms) line one ⏎ line two\n');
    expect(
      renderEvent(
        { type: 'tool_end', ...info, result: 'x'.repeat(10), isError: true, durationMs: 0 },
        { maxChars: 4 },
      ),
    ).toBe('  ✗ get-sum (0 ms) xxxx…\n');
  });

  it('prints warnings and errors, and nothing for bookkeeping events', () => {
    expect(renderEvent({ type: 'warning', message: 'tool skipped' })).toBe('warning: tool skipped\n');
    expect(renderEvent({ type: 'error', error: new TypeError('bad') })).toBe('error: TypeError: bad\n');
    expect(renderEvent({ type: 'turn_start', turn: 1 })).toBe('');
  });
});
