/**
 * `notifications/tasks/status` (MCP spec 2025-11-25, "Tasks > Task Status Notification"): server-everything
 * pushes each status change of `simulate-research-query` (four stages, 1 s each; polls every 1 s). Pushed
 * statuses reach `onTaskStatus`, `onprogress` and the `taskStatus` event as they happen, so every stage is
 * reported, in order, whatever the polls happen to see; polling goes on beside them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MCPClient } from '../../../src/mcp/client/client.js';
import type { MCPTask } from '../../../src/mcp/protocol/tasks.js';
import type { Progress } from '../../../src/mcp/protocol/types.js';
import { type EverythingServer, startEverything } from '../../fixtures/http-everything.js';
import { everythingStdio } from '../../helpers.js';

const TOOL = 'simulate-research-query';
const STAGES = ['Gathering sources', 'Analyzing content', 'Synthesizing findings', 'Generating report'];

let http: EverythingServer;
beforeAll(async () => {
  http = await startEverything('streamableHttp');
}, 30_000);
afterAll(async () => {
  await http?.stop();
});
const open: MCPClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
});

const clients: [string, () => MCPClient][] = [
  ['stdio', () => MCPClient.fromStdio(everythingStdio())],
  ['Streamable HTTP', () => MCPClient.fromUrl(http.url)],
];

describe.each(clients)('pushed task statuses over %s', (_name, make) => {
  it('reports every stage, in order, then completed; events and progress match', async () => {
    const client = make();
    open.push(client);
    await client.connect();
    const statuses: MCPTask[] = [];
    const events: MCPTask[] = [];
    const progress: Progress[] = [];
    client.on('taskStatus', ({ task }) => events.push(task));
    const result = await client.callTool(
      TOOL,
      { topic: 'tides' },
      { onTaskStatus: (t) => statuses.push(t), onprogress: (p) => progress.push(p) },
    );
    expect(result.isError).toBeUndefined();
    const seen = statuses.map((t) => `${t.status}${t.statusMessage ? `: ${t.statusMessage}` : ''}`);
    // The created task may come without a message: it is reported first, as the server sent it.
    const stages = seen.filter((s) => s !== 'working');
    expect(stages).toEqual([...STAGES.map((s) => `working: ${s}...`), 'completed: Generating report...']);
    expect(seen.length - stages.length).toBeLessThanOrEqual(1);
    expect(events).toEqual(statuses);
    expect(progress.map((p) => p.message)).toEqual(seen.map((s) => `task ${s}`));
    expect(progress.map((p) => p.progress)).toEqual(seen.map((_, i) => i + 1));
  }, 30_000);
});
