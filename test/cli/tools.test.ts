import { describe, expect, it } from 'vitest';
import { EVERYTHING_TOOLS } from '../helpers.js';
import { cli, EVERYTHING } from './run-cli.js';

describe('agentwire tools against server-everything over stdio', () => {
  it('lists every tool with a one-line description and its parameters', async () => {
    const run = await cli(['tools', '--stdio', EVERYTHING]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const lines = run.stdout.split('\n');
    const toolLines = lines.filter((line) => line !== '' && !line.startsWith('  '));
    expect(toolLines.map((line) => line.split(':')[0])).toEqual(EVERYTHING_TOOLS);
    const block = (name: string) => {
      const start = lines.findIndex((line) => line.startsWith(`${name}:`));
      const end = lines.findIndex((line, i) => i > start && !line.startsWith('  '));
      return lines.slice(start, end);
    };
    expect(block('echo')).toEqual([
      'echo: Echoes back the input string',
      '  message (string, required): Message to echo',
    ]);
    expect(block('get-sum')).toEqual([
      'get-sum: Returns the sum of two numbers',
      '  a (number, required): First number',
      '  b (number, required): Second number',
    ]);
    expect(block('get-tiny-image')).toEqual([
      'get-tiny-image: Returns a tiny MCP logo image.',
      '  (no parameters)',
    ]);
    expect(block('get-structured-content')).toEqual([
      'get-structured-content: Returns structured content along with an output schema for client data validation',
      '  location ("New York" | "Chicago" | "Los Angeles", required): Choose city',
    ]);
    expect(run.stdout.endsWith('\n')).toBe(true);
  });

  it('prints the full tools/list entries with --json, schemas unreduced', async () => {
    const run = await cli(['tools', '--json', '--stdio', EVERYTHING]);
    expect(run.code).toBe(0);
    const definitions = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    expect(definitions).toHaveLength(13);
    expect(definitions[0]).toEqual({
      name: 'echo',
      title: 'Echo Tool',
      description: 'Echoes back the input string',
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { message: { type: 'string', description: 'Message to echo' } },
        required: ['message'],
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      execution: { taskSupport: 'forbidden' },
    });
    const structured = definitions.find((tool) => tool.name === 'get-structured-content');
    expect(structured?.outputSchema).toMatchObject({ required: ['temperature', 'conditions', 'humidity'] });
  });

  it('exits 3 without output when the server cannot be started', async () => {
    const run = await cli(['tools', '--stdio', 'no-such-command-xyz']);
    expect(run).toEqual({
      code: 3,
      stdout: '',
      stderr:
        'error: MCP server "no-such-command-xyz": initialize failed: cannot start server "no-such-command-xyz": ' +
        'command "no-such-command-xyz" was not found on PATH\n',
    });
  });
});
