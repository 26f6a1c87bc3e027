/**
 * `agentwire tasks list|get|cancel` (in-process): against the real server-everything (declares `tasks.list`;
 * a fresh connection has no tasks), a server that declares no tasks (exit 3, nothing sent), and the 2026
 * fixture with `--state`, whose tasks outlive the process that created them (`get` and `cancel` by id from a
 * new process; the extension has no `tasks/list`).
 */
import path from 'node:path';
import { quote } from 'shell-quote';
import { afterEach, describe, expect, it } from 'vitest';
import { MCPClient } from '../../src/mcp/client/client.js';
import { ROOT, SCRIPTED, tempDir, waitUntil } from '../helpers.js';
import { cli, EVERYTHING } from './run-cli.js';

const SCRIPT = path.join(ROOT, 'test', 'fixtures', 'era2026', 'tasks-server.mjs');
const open: MCPClient[] = [];
const dirs: { remove(): void }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((client) => client.disconnect()));
  for (const dir of dirs.splice(0)) dir.remove();
});

describe('agentwire tasks (2025-11-25)', () => {
  it('lists no tasks on a fresh connection to server-everything, for people and as JSON', async () => {
    expect(await cli(['tasks', 'list', '--stdio', EVERYTHING])).toEqual({
      code: 0,
      stdout: '(no tasks)\n',
      stderr: '',
    });
    expect(await cli(['tasks', 'list', '--json', '--stdio', EVERYTHING])).toEqual({
      code: 0,
      stdout: '[]\n',
      stderr: '',
    });
  }, 30_000);

  it('exits 3 naming the capability when the server declares no tasks', async () => {
    const server = `${process.execPath} ${SCRIPTED}`;
    expect(await cli(['tasks', 'list', '--stdio', server])).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: MCP server "scripted-server": tasks/list failed: the server does not declare tasks/list ' +
        '(capabilities.tasks.list)\n',
    });
    expect(await cli(['tasks', 'cancel', 't1', '--stdio', server])).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: MCP server "scripted-server": tasks/cancel failed: the server does not declare tasks/cancel ' +
        '(capabilities.tasks.cancel)\n',
    });
  }, 30_000);
});

describe('agentwire tasks (2026-07-28 tasks extension)', () => {
  it('gets and cancels, from a new process, a task another process created; list exits 3', async () => {
    const dir = tempDir('agentwire-cli-tasks-');
    dirs.push(dir);
    const state = path.join(dir.dir, 'state.json');
    const command = quote([process.execPath, SCRIPT, `--state=${state}`]);
    const creator = MCPClient.fromStdio({ command: process.execPath, args: [SCRIPT, `--state=${state}`] });
    open.push(creator);
    await creator.connect();
    const call = creator.callToolAsTask('research', { topic: 'tides', steps: 1000, stepMs: 1000 });
    await waitUntil(() => call.task !== undefined, 10_000, 'the task');
    const taskId = call.task?.taskId as string;

    const got = await cli(['tasks', 'get', taskId, '--json', '--stdio', command]);
    expect(got.code).toBe(0);
    expect(got.stderr).toBe('');
    const task = JSON.parse(got.stdout);
    expect(task).toMatchObject({ taskId, status: 'working', ttlMs: 60_000, pollIntervalMs: 50 });
    expect(task.statusMessage).toMatch(/^step \d+ of 1000$/);

    const line = await cli(['tasks', 'get', taskId, '--stdio', command]);
    expect(line.stdout).toMatch(new RegExp(`^${taskId}  working: step \\d+ of 1000\\n$`));

    expect(await cli(['tasks', 'cancel', taskId, '--stdio', command])).toEqual({
      code: 0,
      stdout: `cancelled ${taskId}\n`,
      stderr: '',
    });
    expect(await cli(['tasks', 'list', '--stdio', command])).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: MCP server "tasks-server": tasks/list failed: the tasks extension ' +
        '(io.modelcontextprotocol/tasks) has no tasks/list\n',
    });
    call.cancel();
  }, 60_000);
});
