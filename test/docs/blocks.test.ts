/**
 * Every code block of the README and of docs/ is checked, by its language:
 * - `ts`: type-checked, all in one program, with `agentwire` and its subpaths resolved to the sources;
 *   so are the `@example` blocks of the sources' TSDoc (which `npm run docs` publishes), and the four
 *   classes a reader meets first (`MCPClient`, `MCPServers`, `Agent`, `MCPGateway`) must have one; a block
 *   that imports a framework installed only in frameworks/ (it needs Node 22) is type-checked there instead,
 *   as the example file it shows (frameworks-example.test.ts, frameworks/tsconfig.json);
 * - `json`: parsed; a server configuration is loaded as agentwire loads it, and its `gateway` section read;
 * - `sh`: each command line is one the docs may show; an `agentwire` command line is parsed against the
 *   program's own commands and flags (cli-help.ts), and an `npm run` names a script of package.json;
 * - `text` (what something prints): checked by the test named for it below, which reads that very block;
 * - a configuration of another program (`haproxy`): run by the test named for it below, which reads it.
 * The example files behind the longer blocks are run by their own tests (readme-examples, tasks-example,
 * skills-example, dpop-example, and test/mcp/transports/http/grants-readme.test.ts); the command lines that
 * need only a local server are run by command-lines.test.ts, the README's gateway quick start by
 * readme-gateway.test.ts.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse as parseShell } from 'shell-quote';
import { beforeAll, describe, expect, it } from 'vitest';
import { readGatewaySettings } from '../../src/gateway/options.js';
import { MCPAuthConfigError } from '../../src/mcp/auth/auth-config-error.js';
import { parseServerConfig } from '../../src/mcp/config/load.js';
import { ROOT } from '../helpers.js';
import { type CliCommand, cliCommands } from './cli-help.js';
import { typeProblems } from './examples.js';
import { allBlocks, type CodeBlock } from './markdown.js';

/** Which test checks each block of output, found by its page and the heading above it. */
const OUTPUT_CHECKS = [
  { page: 'README.md', heading: '## Library quick start', test: 'test/docs/readme-examples.test.ts' },
  { page: 'README.md', heading: '## Agent quick start', test: 'test/docs/readme-examples.test.ts' },
  { page: 'docs/configuration.md', heading: '## The file', test: 'test/cli/config.test.ts' },
  { page: 'docs/cli.md', heading: '## `agentwire run`', test: 'test/cli/run.test.ts' },
  { page: 'docs/cli.md', heading: '## Output, errors and exit codes', test: 'test/docs/cli-output.test.ts' },
  { page: 'docs/tasks-and-skills.md', heading: '## Tasks', test: 'test/docs/tasks-example.test.ts' },
  { page: 'docs/tasks-and-skills.md', heading: '## Skills', test: 'test/docs/skills-example.test.ts' },
];

/** Which test runs each configuration of another program, by its page and language. */
const CONFIG_CHECKS = [
  { page: 'docs/gateway-deploy.md', lang: 'haproxy', test: 'test/gateway/balancer.test.ts' },
];

/** The programs a shell block may run besides `agentwire`, each with what it does in the docs. */
const OTHER_COMMANDS = new Set([
  'cd', // into a new project
  'mkdir',
  'export', // a variable for the next lines
  'npm', // install, init, pkg, test, run <script> (checked below)
  'npx', // `npx agentwire …` (checked as agentwire) and `npx tsx` for the quick start
  'openssl', // a random bearer token
  'curl', // a request to Restate's admin API or ingress (durable runs)
]);

/** What `npx` may run besides `agentwire`: the quick start's `tsx`, and the Restate server durable runs use. */
const NPX_PROGRAMS = new Set(['tsx', '@restatedev/restate-server']);

const blocks = allBlocks();

/** The frameworks installed in frameworks/ only (its packages the root does not have). */
const FRAMEWORKS_ONLY = (() => {
  const read = (file: string) =>
    JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, Record<string, string>>;
  const root = read('package.json');
  return Object.keys(read('frameworks/package.json').devDependencies ?? {}).filter(
    (name) => !(name in { ...root.dependencies, ...root.devDependencies }),
  );
})();

/** Whether a `ts` block imports a package of {@link FRAMEWORKS_ONLY}. */
const needsFrameworksProject = (block: CodeBlock) =>
  [...block.text.matchAll(/from '([^']+)'/g)].some(([, specifier = '']) =>
    FRAMEWORKS_ONLY.some((name) => specifier === name || specifier.startsWith(`${name}/`)),
  );
const where = (block: CodeBlock) => `${block.page}:${block.line}`;

/** Every `@example` block of the sources' TSDoc, with the name of the declaration it documents. */
function tsdocExamples(): { file: string; line: number; name: string; code: string }[] {
  const examples: { file: string; line: number; name: string; code: string }[] = [];
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? walk(path.join(dir, entry.name))
        : entry.name.endsWith('.ts')
          ? [path.join(dir, entry.name)]
          : [],
    );
  for (const file of walk(path.join(ROOT, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const comment of text.matchAll(
      /\/\*\*([\s\S]*?)\*\/\s*(?:export\s+)?(?:declare\s+)?(?:abstract\s+)?(?:class|function|interface|const|type)?\s*(\w*)/g,
    )) {
      const body = (comment[1] ?? '').replace(/^[ \t]*\* ?/gm, '');
      const at = body.indexOf('@example');
      if (at < 0) continue;
      const line = text.slice(0, comment.index).split('\n').length;
      for (const fence of body.slice(at).matchAll(/```ts\n([\s\S]*?)```/g)) {
        examples.push({
          file: path.relative(ROOT, file),
          line,
          name: comment[2] ?? '',
          code: fence[1] ?? '',
        });
      }
    }
  }
  return examples;
}

describe('TypeScript blocks', () => {
  it('type-check against the sources: every ts block of the docs, and every @example of the TSDoc', () => {
    const virtual = new Map<string, string>();
    const label = new Map<string, string>();
    for (const block of blocks.filter((one) => one.lang === 'ts' && !needsFrameworksProject(one))) {
      const file = path.join(ROOT, 'docs', '.blocks', `${block.page.replace(/[/.]/g, '_')}_${block.line}.ts`);
      virtual.set(file, block.text);
      label.set(path.relative(ROOT, file), where(block));
    }
    for (const example of tsdocExamples()) {
      const file = path.join(
        ROOT,
        'docs',
        '.blocks',
        `${example.file.replace(/[/.]/g, '_')}_${example.line}.ts`,
      );
      virtual.set(file, example.code);
      label.set(path.relative(ROOT, file), `${example.file}:${example.line} (@example of ${example.name})`);
    }
    const problems = typeProblems([...virtual.keys()], virtual).map((problem) => {
      const [file = '', ...rest] = problem.split(': ');
      return `${label.get(file) ?? file}: ${rest.join(': ')}`;
    });
    expect(problems).toEqual([]);
    expect(virtual.size).toBeGreaterThan(15);
  }, 120_000);

  it('leaves to frameworks/ the blocks of its frameworks: those of docs/frameworks.md with Node 22 frameworks', () => {
    const left = blocks.filter((block) => block.lang === 'ts' && needsFrameworksProject(block));
    expect(left.map((block) => block.page)).toEqual(['docs/frameworks.md', 'docs/frameworks.md']);
    expect(FRAMEWORKS_ONLY.sort()).toEqual([
      '@ai-sdk/openai',
      '@mastra/core',
      '@openai/agents',
      '@openai/agents-core',
      'ai',
    ]);
  });

  it('include an @example on MCPClient, MCPServers, Agent and MCPGateway', () => {
    const documented = new Set(tsdocExamples().map((example) => example.name));
    expect(
      ['MCPClient', 'MCPServers', 'Agent', 'MCPGateway'].filter((name) => !documented.has(name)),
    ).toEqual([]);
  });
});

describe('JSON blocks', () => {
  it('parse, and load as server configurations where they are one', () => {
    const problems: string[] = [];
    const dir = mkdtempSync(path.join(tmpdir(), 'agentwire-docs-json-'));
    try {
      for (const block of blocks.filter((candidate) => candidate.lang === 'json')) {
        let value: unknown;
        try {
          value = JSON.parse(block.text);
        } catch (error) {
          problems.push(`${where(block)}: not JSON (${(error as Error).message})`);
          continue;
        }
        const config = value as Record<string, unknown>;
        if (config.mcpServers === undefined && config.servers === undefined) continue;
        // Every ${VAR} the block uses, set; files it names need not exist (the grants test provides them).
        const env = Object.fromEntries(
          [...block.text.matchAll(/\$\{(?:env:)?(\w+)/g)].map((m) => [m[1], 'value-of-it']),
        );
        const loaded = parseServerConfig(value, { env, baseDir: dir, source: where(block) });
        for (const { name, error } of loaded.invalid) {
          if (!(error instanceof MCPAuthConfigError && error.problem === 'unreadable_file'))
            problems.push(`${where(block)}: entry "${name}": ${error.message}`);
        }
        if (config.gateway !== undefined) {
          const file = path.join(dir, 'gateway.json');
          writeFileSync(file, block.text);
          try {
            readGatewaySettings(file);
          } catch (error) {
            problems.push(`${where(block)}: ${(error as Error).message}`);
          }
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(problems).toEqual([]);
  });
});

describe('shell blocks', () => {
  let commands: Map<string, CliCommand>;
  beforeAll(async () => {
    commands = await cliCommands();
  });

  /** What is wrong with `agentwire <words>`, if anything: an unknown command or flag, a flag without its value. */
  function cliProblem(words: string[]): string | undefined {
    let command = commands.get('') as CliCommand;
    let at = 0;
    const program = command;
    for (; at < words.length; at++) {
      const word = words[at] ?? '';
      if (word.startsWith('-')) {
        if (!command.flags.has(word) && !program.flags.has(word))
          return `"${command.path}" has no flag ${word}`;
        if (command.takesValue.has(word)) at++;
        continue;
      }
      const sub = commands.get(command.path === '' ? word : `${command.path} ${word}`);
      if (!sub) break;
      command = sub;
    }
    if (command.path === '' || command.subcommands.length > 0) return `no command: ${words.join(' ')}`;
    for (; at < words.length; at++) {
      const word = words[at] ?? '';
      if (!/^--?[A-Za-z]/.test(word)) continue;
      if (!command.flags.has(word) && !program.flags.has(word))
        return `"${command.path}" has no flag ${word}`;
      if (command.takesValue.has(word)) {
        if (at + 1 >= words.length) return `${word} of "${command.path}" needs a value`;
        at++;
      }
    }
    return undefined;
  }

  it('run only agentwire, npm and the few commands a setup needs, with flags the program has', () => {
    const scripts = (
      JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    const problems: string[] = [];
    let checked = 0;
    for (const block of blocks.filter((candidate) => candidate.lang === 'sh')) {
      const env: Record<string, string> = {};
      const lines = block.text.replace(/\\\n\s*/g, ' ').split('\n');
      for (const line of lines) {
        // Each command of the line (`a && b`, `a &`), its words with variables as set above in the block.
        const words = parseShell(line, (name) => env[name] ?? `$${name}`);
        const segments: string[][] = [[]];
        for (const word of words) {
          if (typeof word === 'string') segments.at(-1)?.push(word);
          else if ('op' in word && word.op !== 'glob') segments.push([]);
          else if ('comment' in word) break;
          else if ('pattern' in word) segments.at(-1)?.push(word.pattern);
        }
        for (let segment of segments.filter((s) => s.length > 0)) {
          // Leading assignments: `NAME=value command …`, or a variable for the lines below.
          while (/^[A-Z_][A-Z0-9_]*=/.test(segment[0] ?? '')) {
            const [name = '', ...value] = (segment[0] ?? '').split('=');
            if (segment.length === 1) env[name] = value.join('=');
            segment = segment.slice(1);
          }
          if (segment.length === 0) continue;
          const [first = '', second = ''] = segment;
          const main = segment.findIndex((word) => /(^|\/)dist\/cli\/main\.js$/.test(word));
          let cli: string[] | undefined;
          if (first === 'agentwire') cli = segment.slice(1);
          else if (first === 'npx' && second === 'agentwire') cli = segment.slice(2);
          else if (first === 'node' && main > 0) cli = segment.slice(main + 1);
          if (cli !== undefined) {
            checked++;
            const problem = cliProblem(cli);
            if (problem) problems.push(`${where(block)}: ${line.trim()}: ${problem}`);
            continue;
          }
          if (first === 'node' && /^bench\/[\w-]+\.mjs$/.test(segment[1] ?? '')) continue;
          if (first === 'npm' && second === 'run' && scripts[segment[2] ?? ''] === undefined)
            problems.push(`${where(block)}: npm run ${segment[2]}: package.json has no such script`);
          if (first === 'npx' && !NPX_PROGRAMS.has(second)) problems.push(`${where(block)}: npx ${second}`);
          if (!OTHER_COMMANDS.has(first) && first !== 'node')
            problems.push(`${where(block)}: ${first} is not a command the docs run`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  });
});

describe('output blocks', () => {
  it('are each checked by the test named for it, which reads that block', () => {
    const problems: string[] = [];
    for (const block of blocks.filter((candidate) => candidate.lang === 'text')) {
      const check = OUTPUT_CHECKS.find(
        (entry) => entry.page === block.page && entry.heading === block.heading,
      );
      if (!check) problems.push(`${where(block)}: no test checks this output (under "${block.heading}")`);
    }
    for (const check of OUTPUT_CHECKS) {
      const test = readFileSync(path.join(ROOT, check.test), 'utf8');
      if (!test.includes(check.page) || !test.includes(check.heading))
        problems.push(`${check.test} does not read "${check.heading}" of ${check.page}`);
    }
    expect(problems).toEqual([]);
  });

  it('have no other language than ts, json, sh, text and the configurations above', () => {
    const configOf = (block: CodeBlock) =>
      CONFIG_CHECKS.some((check) => check.page === block.page && check.lang === block.lang);
    expect(
      blocks
        .filter((block) => !['ts', 'json', 'sh', 'text'].includes(block.lang) && !configOf(block))
        .map(where),
    ).toEqual([]);
  });

  it('of another program are each run by the test named for it, which reads that page', () => {
    const problems = CONFIG_CHECKS.filter((check) => {
      const test = readFileSync(path.join(ROOT, check.test), 'utf8');
      const read = test.includes(check.page) && test.includes(`\`\`\`${check.lang}`);
      return !read || !blocks.some((block) => block.page === check.page && block.lang === check.lang);
    }).map((check) => `${check.test} does not read the ${check.lang} block of ${check.page}`);
    expect(problems).toEqual([]);
  });
});
