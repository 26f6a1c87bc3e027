/**
 * Result size per tool (issue 27, item 5): a tool's `_meta` size hint (`anthropic/maxResultSizeChars`)
 * lowers its budget within the agent's, and a result over budget is written whole to `resultSpillDir`, the
 * model getting the file's path, the size, and the result's start and end. A real MCP server (the scripted
 * fixture, whose tool list carries the hint) and the agent's own loop against a fake Anthropic API.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { budgetOf, fitResult, resultSizeHint } from '../../src/agent/result-budget.js';
import { MCPClient } from '../../src/mcp/index.js';
import { anthropic } from '../../src/providers/index.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { scripted, tempDir } from '../helpers.js';
import { localTool, messagesOf } from './helpers.js';

const echo = (meta?: Record<string, unknown>) => ({
  name: 'echo',
  description: 'Echoes text',
  inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  ...(meta && { _meta: meta }),
});

/** 40 lines of 10 bytes: `line 01..\n` … `line 40..\n`, 400 bytes; the tool answers `echo: ` before it. */
const LINES = Array.from({ length: 40 }, (_, i) => `line ${String(i + 1).padStart(2, '0')}..\n`).join('');

describe('result size per tool', () => {
  const fake = useFakeModelServer(startFakeAnthropic);
  let hinted: MCPClient;
  let spill: ReturnType<typeof tempDir>;
  beforeAll(async () => {
    hinted = MCPClient.fromStdio(
      scripted({ FIXTURE_TOOLS: JSON.stringify([echo({ 'anthropic/maxResultSizeChars': 300 })]) }),
      { name: 'hinted' },
    );
    await hinted.connect();
  });
  afterAll(async () => {
    await hinted.disconnect();
  });
  afterEach(() => spill?.remove());
  const model = () => anthropic({ model: 'claude-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });

  it("reads the hint from the tool's _meta, and keeps the host's budget as the ceiling", () => {
    const tool = hinted.getTools()[0]!;
    expect(resultSizeHint(tool)).toBe(300);
    expect(resultSizeHint(localTool('plain', () => ''))).toBeUndefined();
    const budget = { maxBytes: 100_000, byTool: {} };
    expect(budgetOf(budget, 'echo', { tool })).toBe(300);
    // A hint lowers, never raises: the agent's (or the server's) budget is the ceiling.
    expect(budgetOf({ ...budget, maxBytes: 200 }, 'echo', { tool })).toBe(200);
    expect(budgetOf(budget, 'echo', { tool, maxResultBytes: 250 })).toBe(250);
    // The host's budget for the tool by name wins over the hint.
    expect(budgetOf({ ...budget, byTool: { echo: 5_000 } }, 'echo', { tool })).toBe(5_000);
  });

  it('spills a result over the hinted budget to a file: the model gets the path, the size, a head and a tail', async () => {
    spill = tempDir('agentwire-spill-');
    const dir = path.join(spill.dir, 'results');
    fake.script(
      { toolCalls: [{ id: 'call_1', name: 'echo', input: { text: LINES } }] },
      { text: 'Read it.' },
    );
    const agent = new Agent({ model: model(), resultSpillDir: dir });
    await agent.addMcpServer(hinted);
    await agent.execute('Echo the lines.');
    const file = path.join(dir, 'echo-call_1.txt');
    expect(readdirSync(dir)).toEqual(['echo-call_1.txt']);
    expect(readFileSync(file, 'utf8')).toBe(`echo: ${LINES}`);
    const content =
      'echo: line 01..\nline 02..\nline 03..\nline 04..\nline 05..\nline 06..\nline 07..\nline 08..\n' +
      `[agentwire cut 291 of 406 bytes here (lines 9 to 38 of 40). The whole result (406 bytes) is in the file ${file}: read the cut part there.]\n` +
      'ine 38..\nline 39..\nline 40..\n';
    expect(messagesOf(fake.requests[1]).at(-1)).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'call_1', content, is_error: false }],
    });
    expect(Buffer.byteLength(content)).toBeLessThanOrEqual(300);
  });

  it('without a spill directory, cuts to the hinted budget and says how to read a part', async () => {
    fake.script({ toolCalls: [{ id: 'call_2', name: 'echo', input: { text: LINES } }] }, { text: 'Ok.' });
    const agent = new Agent({ model: model() });
    await agent.addMcpServer(hinted);
    await agent.execute('Echo the lines.');
    const [result] = (messagesOf(fake.requests[1]).at(-1) as { content: { content: string }[] }).content;
    expect(result!.content).toBe(
      'echo: line 01..\nline 02..\nline 03..\nline 04..\nline 05..\nline 06..\nline 07..\n' +
        '[agentwire cut 311 of 406 bytes here (lines 8 to 39 of 40). The result is over the 300 byte budget for tool results. echo has no argument to ask for a part; narrow the request if you need the cut part.]\n' +
        'ine 39..\nline 40..\n',
    );
  });

  it('a second result of the same name gets a file of its own, and a spill that cannot be written says why', async () => {
    spill = tempDir('agentwire-spill-');
    const options = { modelName: 'echo', toolCallId: 'c', schema: { type: 'object' }, maxBytes: 200 };
    await fitResult(LINES, { ...options, spillDir: spill.dir });
    const second = await fitResult(LINES, { ...options, spillDir: spill.dir });
    expect(second).toContain(
      `The whole result (400 bytes) is in the file ${path.join(spill.dir, 'echo-c-2.txt')}:`,
    );
    expect(readdirSync(spill.dir).sort()).toEqual(['echo-c-2.txt', 'echo-c.txt']);
    const blocked = path.join(spill.dir, 'echo-c.txt', 'below-a-file');
    const failed = await fitResult(LINES, { ...options, spillDir: blocked });
    expect(failed).toContain(
      `The result is over the 200 byte budget for tool results. echo has no argument to ask for a part; narrow the request if you need the cut part. (Writing the whole result to ${blocked} failed: ENOTDIR.)]`,
    );
    // Within budget: nothing is written.
    expect(await fitResult('short', { ...options, spillDir: path.join(spill.dir, 'unused') })).toBe('short');
    expect(readdirSync(spill.dir).sort()).toEqual(['echo-c-2.txt', 'echo-c.txt']);
  });
});
