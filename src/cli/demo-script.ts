/**
 * The demo behind `npm run demo`: agentwire against two real MCP servers from node_modules —
 * server-everything over stdio and server-filesystem on the repository's `examples/files/` — listing their
 * tools and calling a few the way an agent would (`MCPTool.execute`), printing what a model would see.
 */
import { realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MCPClient, MCPToolError } from '../mcp/index.js';
import { describeFailure } from './failure.js';
import { type CliIo, ExitCode, type ExitCodeValue } from './io.js';
import { formatToolList } from './tool-list.js';

// The same relative path from src/cli and dist/cli: the demo works from any cwd.
const packageJson = new URL('../../package.json', import.meta.url);
const packageRoot = path.dirname(fileURLToPath(packageJson));

/** The entry script of an installed MCP server package, resolved from agentwire's root, not the cwd. */
function serverScript(pkg: string): string {
  return createRequire(packageJson).resolve(`${pkg}/dist/index.js`);
}

/** The folder server-filesystem may read: `examples/files/` (real path: the server resolves symlinks). */
export const DEMO_FILES = realpathSync(path.join(packageRoot, 'examples', 'files'));

/** A call the demo makes: which server, which tool, with what input. */
interface DemoCall {
  client: MCPClient;
  tool: string;
  input: Record<string, unknown>;
}

/**
 * Runs the demo, writing to `io`. Always disconnects both servers.
 * @returns 0 when every step ran (the missing-file error is expected and shown), 3 when a server could not
 *   be reached or a call failed below the tool.
 */
export async function runDemo(io: CliIo): Promise<ExitCodeValue> {
  const everything = MCPClient.fromStdio({
    command: process.execPath,
    args: [serverScript('@modelcontextprotocol/server-everything')],
  });
  const files = MCPClient.fromStdio({
    command: process.execPath,
    args: [serverScript('@modelcontextprotocol/server-filesystem'), DEMO_FILES],
  });
  try {
    await Promise.all([everything.connect(), files.connect()]);
    section(io, `${everything.name} (stdio): ${everything.getTools().length} tools`);
    io.stdout(formatToolList(everything.getTools().map((tool) => tool.definition)));
    section(io, `${files.name} on examples/files (stdio): ${files.getTools().length} tools`);
    io.stdout(formatToolList(files.getTools().map((tool) => tool.definition)));
    section(io, 'Calls, with each result as a model sees it');
    for (const call of demoCalls(everything, files)) await runCall(io, call);
    return ExitCode.ok;
  } catch (error) {
    const failure = describeFailure(error);
    io.stderr(failure.text);
    return failure.exitCode;
  } finally {
    await Promise.all([everything.disconnect(), files.disconnect()]);
  }
}

function demoCalls(everything: MCPClient, files: MCPClient): DemoCall[] {
  return [
    { client: everything, tool: 'echo', input: { message: 'Hello from agentwire' } },
    { client: everything, tool: 'get-sum', input: { a: 2, b: 40 } },
    { client: everything, tool: 'get-tiny-image', input: {} },
    { client: everything, tool: 'get-structured-content', input: { location: 'New York' } },
    { client: files, tool: 'read_text_file', input: { path: path.join(DEMO_FILES, 'hello.txt') } },
    { client: files, tool: 'read_text_file', input: { path: path.join(DEMO_FILES, 'missing.txt') } },
  ];
}

async function runCall(io: CliIo, { client, tool, input }: DemoCall): Promise<void> {
  io.stdout(`\n> ${client.name} ${tool} ${JSON.stringify(input)}\n`);
  const found = client.getTools().find((candidate) => candidate.name === tool);
  if (!found) throw new Error(`server "${client.name}" has no tool "${tool}"`);
  try {
    const value = await found.execute(input);
    const text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
    io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  } catch (error) {
    // A tool that reports failure is part of the show: agents get it as an MCPToolError.
    if (!(error instanceof MCPToolError)) throw error;
    io.stdout(`${error.name}: ${error.message}\n`);
  }
}

function section(io: CliIo, title: string): void {
  io.stdout(`\n== ${title}\n`);
}
