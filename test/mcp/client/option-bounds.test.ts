/** Option values that are not what their names say are refused when the client is made, not at first use. */
import { describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { scripted } from '../../helpers.js';

describe('maxInputRounds', () => {
  it.each([Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY])(
    'refuses %s with a RangeError naming it',
    (bad) => {
      expect(() => MCPClient.fromStdio(scripted(), { maxInputRounds: bad })).toThrow(
        new RangeError(`maxInputRounds must be a whole number of at least 0 (got ${bad})`),
      );
      expect(() => MCPClient.fromUrl('http://127.0.0.1:1/mcp', { maxInputRounds: bad })).toThrow(RangeError);
    },
  );

  it.each([0, 1, 10])('takes %s', (good) => {
    expect(MCPClient.fromStdio(scripted(), { maxInputRounds: good }).getState()).toBe('disconnected');
  });
});
