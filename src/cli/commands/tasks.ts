/**
 * `agentwire tasks list|get <id>|cancel <id>`: a server's tasks by id, whoever created them (MCP spec
 * 2025-11-25, "Basic > Utilities > Tasks": `tasks/list`, `tasks/get`, `tasks/cancel`; the 2026-07-28 tasks
 * extension has `tasks/get` and `tasks/cancel`, no list), for people (default: one line per task) or
 * scripts (`--json`: agentwire's task objects, `ttlMs` and `pollIntervalMs` in ms).
 */
import type { Command } from 'commander';
import type { MCPTask } from '../../mcp/protocol/tasks.js';
import { requestServer } from '../command-runtime.js';
import type { CommandContext } from '../context.js';
import { toJson } from '../io.js';
import { addServerOptions, type ServerOptionValues } from '../server-flags.js';

interface TasksOptions extends ServerOptionValues {
  json?: boolean;
}

/** One task as a line: `<taskId>  <status>[: <statusMessage>]`. */
export function formatTask(task: MCPTask): string {
  return `${task.taskId}  ${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ''}\n`;
}

/**
 * Registers `tasks` and its subcommands on the program. `list` reads every page (`(no tasks)` when there
 * are none); `cancel` prints the task as the server reports it after cancelling, or `cancelled <id>` when
 * its answer carries none (the 2026 extension). What the server does not declare (`tasks.list`,
 * `tasks.cancel`, any tasks) fails before anything is sent, exit 3 like any other call failure.
 */
export function registerTasksCommand(program: Command, context: CommandContext): void {
  const tasks = program.command('tasks').description("list, inspect and cancel a server's tasks");

  const list = tasks
    .command('list')
    .description('list the tasks the server keeps for this client (tasks/list)')
    .option('--json', 'print them as JSON');
  addServerOptions(list).action(async (options: TasksOptions) => {
    const items = await requestServer(options, context.io, (client, request) => client.listTasks(request));
    const text = items.length === 0 ? '(no tasks)\n' : items.map(formatTask).join('');
    context.io.stdout(options.json ? toJson(items) : text);
  });

  const get = tasks
    .command('get')
    .description("print a task's status (tasks/get)")
    .argument('<id>', "the task's id")
    .option('--json', 'print the task as JSON');
  addServerOptions(get).action(async (id: string, options: TasksOptions) => {
    const task = await requestServer(options, context.io, (client, request) => client.getTask(id, request));
    context.io.stdout(options.json ? toJson(task) : formatTask(task));
  });

  const cancel = tasks
    .command('cancel')
    .description('cancel a task (tasks/cancel)')
    .argument('<id>', "the task's id")
    .option('--json', 'print the task the server reports as JSON (null when it reports none)');
  addServerOptions(cancel).action(async (id: string, options: TasksOptions) => {
    const task = await requestServer(options, context.io, (client, request) =>
      client.cancelTask(id, request),
    );
    if (options.json) context.io.stdout(toJson(task ?? null));
    else context.io.stdout(task ? formatTask(task) : `cancelled ${id}\n`);
  });
}
