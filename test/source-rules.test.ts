/**
 * The error rule (errors are classes with fields and `cause`; no code reads an error's message),
 * checked by a scan of src/: no code matches an error message with a regular expression, inspects it with a
 * string method, or compares it with a literal. Why an error happened is told by its class and fields
 * (`MCPCallError.kind`, `reason`, `status`, `code`, …), never recovered from its text.
 *
 * The scan is textual: comments are blanked out first, then every pattern below is looked for in each file;
 * a hit is reported as `file:line: the line`. A match that is there on purpose is listed in {@link ALLOWED}
 * with the reason, and must still be there (a stale entry fails too).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const SRC = path.join(ROOT, 'src');

/** String methods that inspect text. */
const INSPECT = 'match|matchAll|search|startsWith|endsWith|includes|indexOf|lastIndexOf';
/** String methods that inspect or cut text: used on an error's `.message` itself, either way parses it. */
const INSPECT_OR_CUT = `${INSPECT}|replace|replaceAll|split|slice|substring`;
/** Not a type check: `typeof x.message === 'string'` asks what a field holds, not what it says. */
const NOT_TYPEOF = String.raw`(?<!typeof\s+[\w.]*)`;
/** A non-empty string literal: `message !== ''` asks whether there is a message, not what it says. */
const LITERAL = String.raw`(['"${'`'}])(?!\1)`;

/** What reading an error's message looks like; each is searched across line breaks. */
const PATTERNS: { name: string; pattern: RegExp }[] = [
  // error.message.replace(/…/, ''), refused.message.slice(…)
  {
    name: 'a string method on a message',
    pattern: new RegExp(String.raw`\.message\s*\.\s*(?:${INSPECT_OR_CUT})\s*\(`, 'g'),
  },
  // const message = oneLine(error.message); message.includes(`"x"`)
  {
    name: 'a message inspected',
    pattern: new RegExp(String.raw`(?<![.\w])message\s*\.\s*(?:${INSPECT})\s*\(`, 'g'),
  },
  // (error instanceof Error ? error.message : String(error)).replace(/…/, '')
  {
    name: 'a string method on an expression of a message',
    pattern: new RegExp(String.raw`\.message\b[^;{}\n]{0,80}\)\s*\.\s*(?:${INSPECT_OR_CUT})\s*\(`, 'g'),
  },
  // /^Received a …/.test(error.message), /…/.exec(message)
  {
    name: 'a regular expression run on a message',
    pattern: /\/(?:[^/\n\\]|\\.)+\/[dgimsuvy]*\s*\.\s*(?:test|exec)\s*\(\s*[^)]*?\bmessage\b/g,
  },
  // error.message === 'Not connected', error.message !== expected
  {
    name: 'a message compared',
    pattern: new RegExp(String.raw`${NOT_TYPEOF}\.message\s*[!=]==?(?![=>])(?!\s*(?:''|""|${'``'}))`, 'g'),
  },
  // message === 'Not connected', 'Not connected' !== message
  {
    name: 'a message compared with a literal',
    pattern: new RegExp(
      String.raw`${NOT_TYPEOF}(?<![.\w])message\s*[!=]==?(?!=)\s*${LITERAL}|['"${'`'}]\s*[!=]==?\s*(?:\w+\.)*message\b`,
      'g',
    ),
  },
];

/**
 * Matches that are there on purpose: `file` (relative to src/) may hold exactly `count` hits, for `reason`.
 */
const ALLOWED: { file: string; count: number; reason: string }[] = [
  {
    file: 'mcp/session/engine/sdk-signals.ts',
    count: 1,
    reason:
      'the MCP SDK (2.4.0) reports a late response or progress notification only as a plain Error through ' +
      'onerror, with no class, code or field: its text is the only signal there is',
  },
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** `text` with comments replaced by spaces, line breaks kept, so that offsets still give line numbers. */
function withoutComments(text: string): string {
  const blank = (comment: string) => comment.replace(/[^\n]/g, ' ');
  return text.replace(/\/\*[\s\S]*?\*\//g, blank).replace(/^\s*\/\/.*$/gm, blank);
}

/** Every hit in `text`: its line number, the line, and which pattern it is. */
function scan(text: string): { line: number; text: string; name: string }[] {
  const code = withoutComments(text);
  const lines = text.split('\n');
  const hits: { line: number; text: string; name: string }[] = [];
  for (const { name, pattern } of PATTERNS) {
    for (const match of code.matchAll(pattern)) {
      const line = code.slice(0, match.index).split('\n').length;
      hits.push({ line, text: (lines[line - 1] ?? '').trim(), name });
    }
  }
  return hits.sort((a, b) => a.line - b.line);
}

describe('source rules', () => {
  const files = sourceFiles(SRC).map((file) => ({
    file: path.relative(SRC, file).split(path.sep).join('/'),
    hits: scan(readFileSync(file, 'utf8')),
  }));

  it('never reads an error message with a regular expression, a string method or a comparison', () => {
    const violations = files
      .filter(({ file }) => !ALLOWED.some((allowed) => allowed.file === file))
      .flatMap(({ file, hits }) => hits.map((hit) => `src/${file}:${hit.line}: ${hit.text} (${hit.name})`));
    expect(violations).toEqual([]);
  });

  it('still needs each allowed match, and no more of them', () => {
    const counts = ALLOWED.map(({ file }) => ({
      file,
      count: files.find((candidate) => candidate.file === file)?.hits.length ?? 0,
    }));
    expect(counts).toEqual(ALLOWED.map(({ file, count }) => ({ file, count })));
  });

  it('catches each pattern it is meant to catch', () => {
    const samples = [
      "const reason = error.message.replace(/^MCP server [^:]*: /, '');",
      "(error instanceof Error ? error.message : String(error)).replace(/^x/, '');",
      'if (/^Received a response/.test(\n  error.message,\n)) return;',
      "if (message === 'Not connected') return;",
      'if (error.message !== expected) return;',
      'const named = message.includes(quoted) ? message : other;',
      'const prefix = refused.message.slice(0, 10);',
      "if ('Not connected' === error.message) return;",
    ];
    expect(samples.map((sample) => scan(sample).length > 0)).toEqual(samples.map(() => true));
    const allowed = [
      '// error.message.includes("x") in a comment\nconst text = error.message;',
      "if (typeof params.message === 'string') out.message = params.message;",
      "if (reason instanceof Error && reason.message !== '') return reason.message;",
      "return message.replace(/\\s+/g, ' ');",
    ];
    expect(allowed.flatMap(scan)).toEqual([]);
  });
});

/**
 * The one-owner rule of a connection's wire (mcp/session/wire/wire.ts): in the MCP client (src/mcp/), only the
 * `Wire` assigns a transport's `onmessage`, `onclose`, `onerror` or `start`, or redefines them; the SDK
 * `Client`'s own `onerror` slot is the session's. A wrapper of someone else's callback is the smell this
 * rule keeps out.
 */
const SLOT_ASSIGNMENT =
  /\.(onmessage|onclose|onerror|start)\s*=(?![=>])|defineProperty\([^)]*['"](onmessage|onclose|onerror|start)['"]/g;

/** Where a slot may be assigned, and exactly what. */
const SLOT_OWNERS: { file: string; assignments: string[] }[] = [
  { file: 'mcp/session/session.ts', assignments: ['sdk.onerror ='] },
  {
    file: 'mcp/session/wire/wire.ts',
    assignments: ['transport.onmessage =', 'transport.onclose =', 'transport.onerror ='],
  },
];

/** Each slot assignment in `text`: the assigned expression's last two names, `x.onclose =`. */
function slotAssignments(text: string): string[] {
  const code = withoutComments(text);
  return [...code.matchAll(SLOT_ASSIGNMENT)].map((match) => {
    const before = code.slice(Math.max(0, (match.index ?? 0) - 40), match.index ?? 0);
    const owner = /([\w#]+)$/.exec(before)?.[1] ?? '';
    return match[0].startsWith('defineProperty') ? match[0] : `${owner}${match[0].trim()}`;
  });
}

describe('the wire rule', () => {
  it("assigns a transport's onmessage, onclose, onerror and start in the Wire alone", () => {
    const found = sourceFiles(path.join(SRC, 'mcp'))
      .map((file) => ({
        file: path.relative(SRC, file).split(path.sep).join('/'),
        assignments: slotAssignments(readFileSync(file, 'utf8')),
      }))
      .filter(({ assignments }) => assignments.length > 0)
      .sort((a, b) => a.file.localeCompare(b.file));
    expect(found).toEqual(SLOT_OWNERS);
  });

  it('catches an assignment, a wrapper and a redefinition', () => {
    const samples = [
      'transport.onmessage = (message) => take(message);',
      'this.#transport.onclose = () => {};',
      "Object.defineProperty(transport, 'start', { value: () => Promise.resolve() });",
      'sdk.onerror = wrap(sdk.onerror);',
    ];
    expect(samples.map((sample) => slotAssignments(sample).length)).toEqual([1, 1, 1, 1]);
    expect(
      slotAssignments('if (transport.onclose === undefined) return;\nconst f = (x) => x.start;'),
    ).toEqual([]);
  });
});
