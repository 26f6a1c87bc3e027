/**
 * A server's skills offered to the model (MCP Skills extension, SEP-2640): the system prompt names each skill
 * and says what it is for (frontmatter `name` and `description`, from `skills/list`); a `load_skill` tool
 * gives the model a skill's `SKILL.md`, or one more of its files, when it decides to use it. Nothing of a
 * skill is read before the model asks for it ("progressive disclosure"), and every file it gets was verified
 * against the server's entry (`MCPClient.readSkillFile`); a file that fails is refused, never shown.
 */
import type { Tool } from '../core/tool.js';
import type { MCPClient, MCPSkill } from '../mcp/index.js';
import type { McpServerHandle } from './mcp-servers.js';
import type { ToolGroup } from './tool-registry.js';

/** Name of the tool the model loads a skill with. */
export const LOAD_SKILL_TOOL = 'load_skill';

/** What the agent uses of a client to offer its skills (an `MCPClient` has it). */
export type SkillsHandle = Pick<MCPClient, 'name' | 'listSkills' | 'readSkillFile'>;

/**
 * Lists `client`'s skills (no file is read) and returns the registry group that offers them, or `undefined`
 * when the server offers none.
 * @throws what `client.listSkills()` throws (`MCPCallError`).
 */
export async function skillsToolGroup(client: McpServerHandle): Promise<ToolGroup | undefined> {
  if (client.listSkills === undefined || client.readSkillFile === undefined)
    throw new TypeError(`the handle of MCP server "${client.name}" cannot list or read skills`);
  const handle: SkillsHandle = {
    name: client.name,
    listSkills: client.listSkills.bind(client),
    readSkillFile: client.readSkillFile.bind(client),
  };
  const skills = await handle.listSkills();
  if (skills.length === 0) return undefined;
  // The name the model is offered the tool under: `load_skill`, or `<server>__load_skill` when several
  // servers offer skills (the registry prefixes a clash). The prompt and the tool's answers say that one.
  const named = { offered: LOAD_SKILL_TOOL };
  const tool = loadSkillTool(handle, skills, named);
  return {
    source: client.name,
    list: () => [tool],
    instructions: (offeredName) => {
      named.offered = offeredName(tool) ?? LOAD_SKILL_TOOL;
      return catalog(skills, named.offered);
    },
  };
}

/** The system prompt's section: one line per skill, how to load one with the tool named `toolName`. */
function catalog(skills: readonly MCPSkill[], toolName: string): string {
  const lines = skills.map((skill) => `- ${skill.name}: ${skill.description}`);
  return [
    `Skills this server offers. Before following one, call the ${toolName} tool with its name to get its instructions:`,
    ...lines,
  ].join('\n');
}

function loadSkillTool(
  client: SkillsHandle,
  skills: readonly MCPSkill[],
  named: { readonly offered: string },
): Tool {
  return {
    name: LOAD_SKILL_TOOL,
    description: `Loads a skill of MCP server "${client.name}": its SKILL.md instructions, or with \`path\` one of its other files.`,
    inputSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', enum: skills.map((skill) => skill.name), description: 'The skill.' },
        path: {
          type: 'string',
          description:
            'A file of the skill, relative to its directory (as SKILL.md names it). Default SKILL.md.',
        },
      },
      required: ['name'],
      additionalProperties: false,
    },
    source: client.name,
    async execute(input, context) {
      const name = String(input.name);
      const path = typeof input.path === 'string' && input.path !== '' ? input.path : 'SKILL.md';
      const options = context?.signal === undefined ? {} : { signal: context.signal };
      const file = await client.readSkillFile(name, path, options);
      const text = file.text ?? new TextDecoder().decode(file.bytes);
      if (path !== 'SKILL.md') return text;
      const skill = skills.find((entry) => entry.name === name);
      const others =
        skill === undefined || skill.files === 'dynamic'
          ? []
          : skill.files.filter((entry) => entry.path !== 'SKILL.md').map((entry) => entry.path);
      return others.length === 0
        ? text
        : `${text}\n\nOther files of this skill (load one with ${named.offered} and its path): ${others.join(', ')}`;
    },
  };
}
