/**
 * An agent offering a server's skills (MCP Skills extension, SEP-2640) to the model: names and descriptions
 * in the system prompt, a `load_skill` tool that returns the verified files on demand. A real server of the
 * extension (test/fixtures/skills-server.mjs) and the fake Anthropic API, whose request bodies are pinned.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { anthropic } from '../../src/providers/index.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { FORMS_MD, PDF_SKILL_MD } from '../fixtures/skills-files.mjs';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { ROOT, readLog, tempDir } from '../helpers.js';

const SERVER = path.join(ROOT, 'test/fixtures/skills-server.mjs');

const SYSTEM =
  'Be brief.\n\nInstructions from MCP server "docs":\n' +
  'Skills this server offers. Before following one, call the load_skill tool with its name to get its instructions:\n' +
  '- pdf-processing: Extract, fill, and assemble PDF documents\n' +
  '- release-notes: Write release notes from a list of merged changes';

const TOOLS = [
  { name: 'noop', description: 'Does nothing.', input_schema: { type: 'object', properties: {} } },
  {
    name: 'load_skill',
    description:
      'Loads a skill of MCP server "docs": its SKILL.md instructions, or with `path` one of its other files.',
    input_schema: {
      type: 'object',
      properties: {
        name: { type: 'string', enum: ['pdf-processing', 'release-notes'], description: 'The skill.' },
        path: {
          type: 'string',
          description:
            'A file of the skill, relative to its directory (as SKILL.md names it). Default SKILL.md.',
        },
      },
      required: ['name'],
      additionalProperties: false,
    },
  },
];

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An agent with the fixture attached as `docs` (skills offered), and the resources/read URIs it received. */
async function agentWithSkills(
  model: ReturnType<typeof anthropic>,
  ...flags: string[]
): Promise<{ agent: Agent; reads: () => string[] }> {
  const temp = tempDir('agentwire-skills-');
  cleanups.push(temp.remove);
  const log = path.join(temp.dir, 'stdin.jsonl');
  const agent = new Agent({ model, systemPrompt: 'Be brief.' });
  cleanups.push(() => agent.close());
  await agent.withMcpServerStdio(process.execPath, [SERVER, `--log=${log}`, ...flags], undefined, {
    name: 'docs',
    skills: true,
  });
  const reads = () =>
    readLog(log)
      .filter((message) => message.method === 'resources/read')
      .map((message) => String(message.params?.uri));
  return { agent, reads };
}

describe('an agent offering MCP skills', () => {
  const fake = useFakeModelServer(startFakeAnthropic);
  const model = () => anthropic({ model: 'claude-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0 });

  it('lists the skills in the system prompt and loads one, file by file, when the model asks', async () => {
    const { agent, reads } = await agentWithSkills(model());
    expect(reads()).toEqual([]);
    fake.script(
      { toolCalls: [{ id: 's1', name: 'load_skill', input: { name: 'pdf-processing' } }] },
      {
        toolCalls: [
          { id: 's2', name: 'load_skill', input: { name: 'pdf-processing', path: 'references/FORMS.md' } },
        ],
      },
      { text: 'Done.' },
    );
    const result = await agent.execute('Fill the form');
    expect(result.text).toBe('Done.');
    const asked = { role: 'user', content: 'Fill the form' };
    const call = (id: string, input: Record<string, unknown>) => ({
      role: 'assistant',
      content: [{ type: 'tool_use', id, name: 'load_skill', input }],
    });
    const answer = (id: string, content: string) => ({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content, is_error: false }],
    });
    const manifest = `${PDF_SKILL_MD}\n\nOther files of this skill (load one with load_skill and its path): references/FORMS.md`;
    const body = (messages: unknown[]) => ({
      model: 'claude-test',
      max_tokens: 4096,
      messages,
      stream: true,
      system: SYSTEM,
      tools: TOOLS,
    });
    expect(fake.requests).toEqual([
      body([asked]),
      body([asked, call('s1', { name: 'pdf-processing' }), answer('s1', manifest)]),
      body([
        asked,
        call('s1', { name: 'pdf-processing' }),
        answer('s1', manifest),
        call('s2', { name: 'pdf-processing', path: 'references/FORMS.md' }),
        answer('s2', FORMS_MD),
      ]),
    ]);
    expect(reads()).toEqual([
      'skill://pdf-processing/SKILL.md',
      'skill://pdf-processing/references/FORMS.md',
    ]);
  });

  it('gives the model an error, not the content, for a file that fails verification', async () => {
    const { agent } = await agentWithSkills(model(), '--tamper=size');
    fake.script(
      { toolCalls: [{ id: 't1', name: 'load_skill', input: { name: 'pdf-processing' } }] },
      { text: 'Cannot.' },
    );
    await agent.execute('Fill the form');
    const size = Buffer.byteLength(PDF_SKILL_MD);
    expect((fake.requests[1]?.messages as unknown[] | undefined)?.[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 't1',
          content: `MCPSkillVerificationError: skill "pdf-processing" of server "docs": skill://pdf-processing/SKILL.md is ${size + 34} bytes; the skill entry lists ${size}`,
          is_error: true,
        },
      ],
    });
  });

  it('with two skill servers, names each prefixed load_skill tool in the prompt and in its answers', async () => {
    const agent = new Agent({ model: model(), systemPrompt: 'Be brief.' });
    cleanups.push(() => agent.close());
    for (const name of ['docs', 'notes'])
      await agent.withMcpServerStdio(process.execPath, [SERVER], undefined, { name, skills: true });
    fake.script(
      { toolCalls: [{ id: 'p1', name: 'notes__load_skill', input: { name: 'pdf-processing' } }] },
      { text: 'Done.' },
    );
    await agent.execute('Fill the form');
    const section = (server: string) =>
      `Instructions from MCP server "${server}":\n` +
      `Skills this server offers. Before following one, call the ${server}__load_skill tool with its name to get its instructions:\n` +
      '- pdf-processing: Extract, fill, and assemble PDF documents\n' +
      '- release-notes: Write release notes from a list of merged changes';
    const tools = (fake.requests[0]?.tools as { name: string }[] | undefined)?.map((tool) => tool.name);
    expect({ system: fake.requests[0]?.system, tools }).toEqual({
      system: `Be brief.\n\n${section('docs')}\n\n${section('notes')}`,
      tools: ['docs__noop', 'docs__load_skill', 'notes__noop', 'notes__load_skill'],
    });
    expect((fake.requests[1]?.messages as unknown[] | undefined)?.[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'p1',
          content: `${PDF_SKILL_MD}\n\nOther files of this skill (load one with notes__load_skill and its path): references/FORMS.md`,
          is_error: false,
        },
      ],
    });
  });
});
