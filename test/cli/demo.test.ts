import path from 'node:path';
import { expect, it } from 'vitest';
import { DEMO_FILES, runDemo } from '../../src/cli/demo-script.js';

it('runs the demo against server-everything and server-filesystem, printing each rendered result', async () => {
  let stdout = '';
  let stderr = '';
  const code = await runDemo({
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
  });
  expect([code, stderr]).toEqual([0, '']);
  expect(stdout).toContain('\n== server-everything (stdio): 13 tools\necho: Echoes back the input string\n');
  expect(stdout).toContain('\n== server-filesystem on examples/files (stdio): 14 tools\nread_file: ');
  const calls = stdout.slice(stdout.indexOf('\n== Calls'));
  const hello = path.join(DEMO_FILES, 'hello.txt');
  const missing = path.join(DEMO_FILES, 'missing.txt');
  expect(calls).toBe(
    [
      '',
      '== Calls, with each result as a model sees it',
      '',
      '> server-everything echo {"message":"Hello from agentwire"}',
      'Echo: Hello from agentwire',
      '',
      '> server-everything get-sum {"a":2,"b":40}',
      'The sum of 2 and 40 is 42.',
      '',
      '> server-everything get-tiny-image {}',
      "Here's the image you requested:",
      '[image content: image/png, 3.9 KB]',
      'The image above is the MCP logo.',
      '',
      '> server-everything get-structured-content {"location":"New York"}',
      '{"temperature":33,"conditions":"Cloudy","humidity":82}',
      '',
      `> server-filesystem read_text_file ${JSON.stringify({ path: hello })}`,
      'Hello from examples/files/hello.txt.',
      'agentwire read this file through server-filesystem.',
      '',
      `> server-filesystem read_text_file ${JSON.stringify({ path: missing })}`,
      `MCPToolError: Tool "read_text_file" on MCP server "server-filesystem" failed: ENOENT: no such file or directory, open '${missing}'`,
      '',
    ].join('\n'),
  );
});
