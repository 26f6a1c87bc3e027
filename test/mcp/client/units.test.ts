import { describe, expect, it } from 'vitest';
import { backoffDelay, reconnectPolicy } from '../../../src/mcp/client/reconnect.js';
import { nameFromCommand } from '../../../src/mcp/client/transport-plan.js';
import { resolveCallOptions } from '../../../src/mcp/session/call-options.js';

describe('backoffDelay', () => {
  const policy = reconnectPolicy({ enabled: true });

  it('defaults to 10 retries from 500 ms up to 30 s', () => {
    expect(policy).toEqual({ enabled: true, maxRetries: 10, initialDelayMs: 500, maxDelayMs: 30_000 });
  });

  it('doubles per attempt up to the ceiling at the top of the jitter range', () => {
    expect([1, 2, 3, 4, 7, 8, 20].map((attempt) => backoffDelay(policy, attempt, () => 1))).toEqual([
      500, 1000, 2000, 4000, 30_000, 30_000, 30_000,
    ]);
  });

  it('jitters down to half the exponential delay', () => {
    expect(backoffDelay(policy, 3, () => 0)).toBe(1000);
    expect(backoffDelay(policy, 3, () => 0.5)).toBe(1500);
  });
});

describe('resolveCallOptions', () => {
  it('layers overrides over defaults without erasing them with undefined', () => {
    const signal = new AbortController().signal;
    expect(resolveCallOptions({ timeoutMs: 5, signal }, 'x', { timeoutMs: 9, signal: undefined })).toEqual({
      timeoutMs: 9,
      signal,
    });
  });
  it('resolves function defaults by tool name', () => {
    const source = ({ toolName }: { toolName: string }) => ({
      timeoutMs: toolName === 'deep_research' ? 120_000 : 20_000,
    });
    expect(resolveCallOptions(source, 'deep_research', undefined)).toEqual({ timeoutMs: 120_000 });
    expect(resolveCallOptions(source, 'echo', {})).toEqual({ timeoutMs: 20_000 });
  });
  it("folds each layer's deprecated timeout and maxTotalTimeout into the …Ms names, which win", () => {
    expect(resolveCallOptions({ timeout: 5, maxTotalTimeout: 50 }, 'x', undefined)).toEqual({
      timeoutMs: 5,
      maxTotalTimeoutMs: 50,
    });
    expect(resolveCallOptions({ timeout: 5, timeoutMs: 7 }, 'x', {})).toEqual({ timeoutMs: 7 });
    // A per-call alias overrides a default given by its new name: layers are resolved one by one.
    expect(resolveCallOptions({ timeoutMs: 7 }, 'x', { timeout: 9 })).toEqual({ timeoutMs: 9 });
  });
});

describe('nameFromCommand', () => {
  it.each([
    ['node', ['/x/node_modules/@modelcontextprotocol/server-everything/dist/index.js'], 'server-everything'],
    ['npx', ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], 'server-filesystem'],
    ['npx', ['-y', 'some-server@1.2.3'], 'some-server'],
    ['uvx', ['mcp-server-git'], 'mcp-server-git'],
    ['/usr/local/bin/my-mcp-server', ['--port', '0'], 'my-mcp-server'],
    ['node', ['server.mjs'], 'server'],
    ['node', [], 'node'],
    ['node', ['-e', 'console.log(1)'], 'node'],
  ])('names %s %j as %s', (command, args, name) => {
    expect(nameFromCommand(command, args)).toBe(name);
  });
});
