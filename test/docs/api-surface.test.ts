/**
 * The docs against the public API, read from the sources with the TypeScript checker:
 * - every name each entry point of package.json exports (`agentwire`, `agentwire/gateway`, …) is named in
 *   a code span of the README or of a page of docs/;
 * - each table of kinds (an error's `kind`, `problem`, `reason`, `operation`) lists exactly the members of
 *   its union type, and each table of options or events exactly the properties of its type, so that a kind
 *   or option added to the code without the docs (or removed from it) fails here.
 */
import path from 'node:path';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';
import { entryPointSources } from './examples.js';
import { docPages, pageText, scanPage } from './markdown.js';

/** A table of the docs and the type whose members it lists. */
interface TableCheck {
  page: string;
  /** The heading above the table (a whole line). */
  heading: string;
  /** The first header cell of the table. */
  column: string;
  /** The exported type: a union of string literals, or an object type whose properties are listed. */
  type: string;
  /** Members of the type the table leaves out on purpose. */
  except?: string[];
  /** Members the table lists under another name: the file's key for a member read from it (`audit`). */
  listedAs?: Record<string, string>;
}

const TABLES: TableCheck[] = [
  { page: 'docs/client.md', heading: '## Errors', column: 'kind', type: 'MCPCallErrorKind' },
  { page: 'docs/client.md', heading: '## Events', column: 'event', type: 'MCPClientEvents' },
  { page: 'docs/client.md', heading: '## Options', column: 'option', type: 'MCPClientOptions' },
  { page: 'docs/client.md', heading: '### Call options', column: 'option', type: 'MCPToolCallOptions' },
  { page: 'docs/client.md', heading: '## Hooks', column: 'hook', type: 'MCPClientHooks' },
  { page: 'docs/agent.md', heading: '## A run', column: 'event', type: 'AgentEventType' },
  { page: 'docs/agent.md', heading: '## Options', column: 'option', type: 'AgentOptions' },
  { page: 'docs/agent.md', heading: '## Built-in tools', column: 'kind', type: 'BuiltinToolErrorKind' },
  { page: 'docs/agent.md', heading: '## Errors', column: 'kind', type: 'AgentErrorKind' },
  { page: 'docs/providers.md', heading: '## Errors', column: 'kind', type: 'ModelErrorKind' },
  { page: 'docs/providers.md', heading: '## Images in tool results', column: 'option', type: 'ImageOptions' },
  { page: 'docs/authorization.md', heading: '## Errors', column: 'problem', type: 'MCPAuthConfigProblem' },
  {
    page: 'docs/authorization.md',
    heading: '## Stored logins in a library',
    column: 'problem',
    type: 'OAuthStoreProblem',
  },
  {
    page: 'docs/tasks-and-skills.md',
    heading: '## Skills',
    column: 'reason',
    type: 'MCPSkillVerificationReason',
  },
  {
    page: 'docs/gateway.md',
    heading: '## As a library',
    column: 'operation',
    type: 'RedisEventBusOperation',
  },
  {
    page: 'docs/gateway.md',
    heading: '## Settings',
    column: 'setting',
    type: 'MCPGatewayFileSettings',
    except: ['prefixes'], // an entry's own "prefix", not a key of the gateway section
    listedAs: { auditLog: 'audit' }, // the file's "audit" is read into `auditLog`
  },
];

let checker: ts.TypeChecker;
/** Every exported symbol of every entry point, by name. */
const exported = new Map<string, ts.Symbol>();

beforeAll(() => {
  const sources = Object.values(entryPointSources());
  const program = ts.createProgram(sources, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [path.join(ROOT, 'node_modules', '@types')],
  });
  checker = program.getTypeChecker();
  for (const source of sources) {
    const file = program.getSourceFile(source);
    const module = file && checker.getSymbolAtLocation(file);
    if (!module) throw new Error(`no module symbol for ${source}`);
    for (const symbol of checker.getExportsOfModule(module)) exported.set(symbol.name, symbol);
  }
}, 60_000);

/** The members a type lists: a union's string literals, or an object type's property names. */
function membersOf(name: string): string[] {
  let symbol = exported.get(name);
  if (!symbol) throw new Error(`${name} is not exported`);
  if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const type = checker.getDeclaredTypeOfSymbol(symbol);
  if (type.isUnion() && type.types.every((member) => member.isStringLiteral()))
    return type.types.map((member) => (member as ts.StringLiteralType).value);
  return checker.getPropertiesOfType(type).map((property) => property.name);
}

/** The first column of the first table under `heading` whose header starts with `column`, unquoted. */
function tableColumn(check: TableCheck): string[] {
  const lines = pageText(check.page).split('\n');
  const { headings } = scanPage(check.page);
  const index = headings.findIndex((heading) => heading.line === check.heading);
  if (index < 0) throw new Error(`${check.page} has no heading "${check.heading}"`);
  const start = lines.indexOf(check.heading);
  const next = headings.slice(index + 1).find((heading) => heading.depth <= (headings[index]?.depth ?? 1));
  const end = next ? lines.indexOf(next.line, start + 1) : lines.length;
  const section = lines.slice(start, end < 0 ? lines.length : end);
  const header = section.findIndex((line) => new RegExp(`^\\|\\s*${check.column}\\s*\\|`).test(line));
  if (header < 0) throw new Error(`${check.page} "${check.heading}" has no table headed "${check.column}"`);
  const rows: string[] = [];
  for (const line of section.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cell = line.split('|')[1]?.trim() ?? '';
    rows.push(cell.replace(/^`([^`]+)`.*$/, '$1'));
  }
  return rows;
}

describe('the public API in the docs', () => {
  it('names every export of every entry point in a code span of the README or docs/', () => {
    const spans = new Set<string>();
    const words = (text: string) => {
      for (const word of text.matchAll(/[A-Za-z_$][\w$]*/g)) spans.add(word[0]);
    };
    for (const page of docPages()) {
      const { blocks } = scanPage(page);
      for (const block of blocks) words(block.text);
      // Code spans of the prose (they may run over a line break), fenced blocks taken out first.
      const prose = pageText(page).replace(/^\s*```[^\n]*\n[\s\S]*?^\s*```\s*$/gm, '');
      for (const span of prose.matchAll(/`([^`]+)`/g)) words(span[1] ?? '');
    }
    expect(exported.size).toBeGreaterThan(150);
    expect([...exported.keys()].filter((name) => !spans.has(name)).sort()).toEqual([]);
  });

  it.each(TABLES.map((check) => [`${check.page} "${check.heading}": ${check.type}`, check] as const))(
    'lists in %s exactly the members of the type',
    (_name, check) => {
      const expected = membersOf(check.type)
        .filter((member) => !check.except?.includes(member))
        .map((member) => check.listedAs?.[member] ?? member);
      expect(tableColumn(check).sort()).toEqual(expected.sort());
    },
  );
});
