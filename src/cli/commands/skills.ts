/**
 * `agentwire skills list|show <name> [path]`: a server's skills (MCP Skills extension, SEP-2640,
 * `io.modelcontextprotocol/skills`), for people (default) or scripts (`--json`). `list` reads no skill file;
 * `show` reads one, verified against the server's entry (size, digest, and for `SKILL.md` the frontmatter):
 * a file that fails is not printed, and the command exits 1 naming the check.
 */
import type { Command } from 'commander';
import type { MCPSkill, MCPSkillFile } from '../../mcp/index.js';
import { requestServer } from '../command-runtime.js';
import type { CommandContext } from '../context.js';
import { ExitCode, toJson } from '../io.js';
import { ReportedFailure } from '../reported-failure.js';
import { addServerOptions, type ServerOptionValues } from '../server-flags.js';

interface SkillsOptions extends ServerOptionValues {
  json?: boolean;
}

/** Registers `skills` and its subcommands on the program. */
export function registerSkillsCommand(program: Command, context: CommandContext): void {
  const skills = program.command('skills').description("list and show a server's skills (SEP-2640)");

  const list = skills
    .command('list')
    .description('list the skills: name, description, files (skills/list; no file is read)')
    .option('--json', 'print them as JSON');
  addServerOptions(list).action(async (options: SkillsOptions) => {
    const items = await requestServer(options, context.io, (client, request) => client.listSkills(request));
    context.io.stdout(options.json ? toJson(items) : formatSkills(items));
  });

  const show = skills
    .command('show')
    .description("print a skill's SKILL.md, or another of its files, verified (resources/read)")
    .argument('<name>', "the skill's name, or its SKILL.md URI")
    .argument('[path]', 'a file of the skill, relative to its directory', 'SKILL.md')
    .option('--json', 'print the skill entry and the file as JSON');
  addServerOptions(show).action(async (name: string, path: string, options: SkillsOptions) => {
    const { MCPSkillNotFoundError, MCPSkillVerificationError } = await import('../../mcp/index.js');
    const shown = await requestServer(options, context.io, async (client, request) => {
      try {
        const file = await client.readSkillFile(name, path, request);
        const skill = (await client.listSkills(request)).find(
          (entry) => entry.uri === name || entry.name === name,
        );
        return { skill, file };
      } catch (error) {
        if (error instanceof MCPSkillVerificationError || error instanceof MCPSkillNotFoundError)
          return { refused: error };
        throw error;
      }
    });
    // Reported after the server has stopped, as a tool error is: what the server offered was refused.
    if ('refused' in shown) {
      context.io.stderr(`error: ${shown.refused.message}\n`);
      throw new ReportedFailure(ExitCode.toolError, shown.refused);
    }
    context.io.stdout(
      options.json ? toJson({ skill: shown.skill, file: jsonFile(shown.file) }) : fileText(shown.file),
    );
  });
}

/** One skill per line: `name  description  (n files)`, names padded to one column. */
function formatSkills(skills: readonly MCPSkill[]): string {
  if (skills.length === 0) return '(no skills)\n';
  const width = Math.max(...skills.map((skill) => skill.name.length));
  return skills
    .map((skill) => {
      const count = skill.files === 'dynamic' ? 0 : skill.files.length;
      const files = skill.files === 'dynamic' ? 'dynamic' : `${count} file${count === 1 ? '' : 's'}`;
      return `${skill.name.padEnd(width)}  ${skill.description}  (${files})\n`;
    })
    .join('');
}

/** A file for JSON: its fields, and its content as `text` or, for bytes that are not text, `blob` (base64). */
function jsonFile(file: MCPSkillFile): Record<string, unknown> {
  const { bytes, ...fields } = file;
  return file.text === undefined ? { ...fields, blob: Buffer.from(bytes).toString('base64') } : fields;
}

function fileText(file: MCPSkillFile): string {
  const text = file.text ?? new TextDecoder().decode(file.bytes);
  return text.endsWith('\n') ? text : `${text}\n`;
}
