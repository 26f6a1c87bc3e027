/**
 * docs/cli.md against the program (cli-help.ts walks every command's `--help`, in-process): every command
 * has its section, headed "`agentwire <command>`"; every flag of a command is named in its section (or in
 * a parent's, or through the link to the shared "Server options"); and a section names no flag its command
 * (or a subcommand) does not have. A flag added to or removed from the program without the page fails here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type CliCommand, cliCommands } from './cli-help.js';
import { type Heading, pageText, scanPage } from './markdown.js';

const PAGE = 'docs/cli.md';
const HELP_FLAGS = new Set(['-h', '--help']);

/** The flags a piece of Markdown names in its prose's code spans: `--json`, `-y`, `--max-turns <n>`, … */
function flagsIn(text: string): Set<string> {
  const flags = new Set<string>();
  const prose = text.replace(/^\s*```[^\n]*\n[\s\S]*?^\s*```\s*$/gm, '');
  for (const span of prose.matchAll(/`([^`]+)`/g)) {
    for (const flag of (span[1] ?? '').matchAll(/(?:^|[\s(])(--?[A-Za-z][\w-]*)/g)) flags.add(flag[1] ?? '');
  }
  return flags;
}

interface Section {
  heading: Heading;
  /** The section's text, its subsections included. */
  text: string;
  /** The text before its first subsection. */
  own: string;
}

/** Every section of the page by heading line, with its text. */
function sections(): Map<string, Section> {
  const lines = pageText(PAGE).split('\n');
  const { headings } = scanPage(PAGE);
  const at = headings.map((heading) => lines.indexOf(heading.line));
  const found = new Map<string, Section>();
  headings.forEach((heading, index) => {
    const start = at[index] ?? 0;
    const next = headings.findIndex((other, j) => j > index && other.depth <= heading.depth);
    const end = next < 0 ? lines.length : (at[next] ?? lines.length);
    const child = index + 1 < headings.length && (at[index + 1] ?? end) < end ? (at[index + 1] ?? end) : end;
    found.set(heading.line, {
      heading,
      text: lines.slice(start + 1, end).join('\n'),
      own: lines.slice(start + 1, child).join('\n'),
    });
  });
  return found;
}

/** "`agentwire resources list`" → `resources list`; the program itself is "`agentwire`". */
function commandOf(heading: Heading): string | undefined {
  const match = /^#+ `agentwire(?: ([a-z][\w -]*))?`$/.exec(heading.line);
  return match ? (match[1] ?? '') : undefined;
}

let commands: Map<string, CliCommand>;
let bySection: Map<string, Section>;
let serverOptions: Set<string>;

beforeAll(async () => {
  commands = await cliCommands();
  const all = sections();
  bySection = new Map();
  for (const section of all.values()) {
    const command = commandOf(section.heading);
    if (command !== undefined) bySection.set(command, section);
  }
  const shared = all.get('## Server options');
  if (!shared) throw new Error(`${PAGE} has no "## Server options" section`);
  serverOptions = flagsIn(shared.text);
});

/** The flags a section documents: those it names, and the server options when it links to them. */
function documented(text: string): Set<string> {
  const flags = flagsIn(text);
  if (text.includes('](#server-options)')) for (const flag of serverOptions) flags.add(flag);
  return flags;
}

describe('docs/cli.md', () => {
  it('has one section per command of the program, and none for a command it does not have', () => {
    const headed = [...bySection.keys()].sort();
    expect(headed).toEqual([...commands.keys()].sort());
    const { headings } = scanPage(PAGE);
    const lines = headings.map((heading) => heading.line).filter((line) => /`agentwire/.test(line));
    expect(lines.length).toBe(new Set(lines).size);
  });

  it('names every flag of every command in its section, a parent section, or the server options it links to', () => {
    const missing: string[] = [];
    for (const command of commands.values()) {
      const known = new Set<string>();
      const words = command.path === '' ? [] : command.path.split(' ');
      for (let depth = words.length; depth >= 0; depth--) {
        const section = bySection.get(words.slice(0, depth).join(' '));
        if (!section) continue;
        for (const flag of documented(depth === words.length ? section.text : section.own)) known.add(flag);
      }
      for (const flag of command.flags) {
        if (!HELP_FLAGS.has(flag) && !known.has(flag))
          missing.push(`${command.path || 'agentwire'}: ${flag}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('names, in a command section, only flags of that command or of its subcommands', () => {
    const strays: string[] = [];
    for (const [path, section] of bySection) {
      const allowed = new Set<string>();
      for (const command of commands.values()) {
        if (command.path === path || command.path.startsWith(`${path} `) || path === '') {
          for (const flag of command.flags) allowed.add(flag);
        }
      }
      for (const flag of flagsIn(section.text)) {
        if (!allowed.has(flag)) strays.push(`${path || 'agentwire'}: ${flag}`);
      }
    }
    expect(strays).toEqual([]);
  });

  it('lists as server options only flags the server commands have', () => {
    const tools = commands.get('tools');
    expect([...serverOptions].filter((flag) => !tools?.flags.has(flag))).toEqual([]);
  });
});
