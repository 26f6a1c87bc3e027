/** The `run` printer's colour: the tool's name and its `✓` / `✗`, only when stdout is coloured. */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/index.js';
import { RunPrinter } from '../../src/cli/run-output.js';

const call = { toolCallId: 'c1', name: 'echo', modelName: 'echo', source: 'server-everything', turn: 1 };
const events: AgentEvent[] = [
  { type: 'tool_start', ...call, input: { message: 'hi' } },
  { type: 'tool_end', ...call, result: 'Echo: hi', isError: false, durationMs: 5 },
  { type: 'tool_end', ...call, result: 'boom', isError: true, durationMs: 7 },
];

function printed(colorStdout: boolean): string {
  let out = '';
  const printer = new RunPrinter({ stdout: (text) => (out += text), stderr: () => {}, colorStdout });
  for (const event of events) printer.print(event);
  return out;
}

describe('RunPrinter colour', () => {
  it('colours the tool name, ✓ green and ✗ red', () => {
    const name = '\u001b[1m\u001b[36mecho\u001b[39m\u001b[22m';
    expect(printed(true)).toBe(
      `▸ ${name} [server-everything] {"message":"hi"}\n` +
        `  \u001b[32m✓\u001b[39m ${name} (5 ms) Echo: hi\n` +
        `  \u001b[31m✗\u001b[39m ${name} (7 ms) boom\n`,
    );
  });

  it('prints the plain rendering without colour', () => {
    expect(printed(false)).toBe(
      '▸ echo [server-everything] {"message":"hi"}\n  ✓ echo (5 ms) Echo: hi\n  ✗ echo (7 ms) boom\n',
    );
  });
});
