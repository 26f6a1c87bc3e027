/**
 * The README and the pages of docs/ as the docs tests read them: their fenced code blocks, headings (with
 * the anchors GitHub makes of them) and relative links. A small line reader, enough for the Markdown these
 * pages use: ATX headings (`## Title`), fenced blocks (```lang), inline links `[text](target)`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../helpers.js';

/** One fenced code block. */
export interface CodeBlock {
  /** The page, relative to the repository root (`README.md`, `docs/client.md`). */
  page: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The fence's info string (`ts`, `sh`, `json`, `text`, …); `''` when none. */
  lang: string;
  /** The block's body, each line ending in `\n`. */
  text: string;
  /** The nearest heading above the block, as written (`## Library quick start`); `''` when none. */
  heading: string;
}

/** One heading. */
export interface Heading {
  /** The heading line as written, `#`s included. */
  line: string;
  /** 1 for `#`, 2 for `##`, … */
  depth: number;
  /** The anchor GitHub gives it (without `#`), numbered `-1`, `-2`, … when repeated on the page. */
  anchor: string;
}

/** One inline link. */
export interface Link {
  page: string;
  line: number;
  target: string;
}

/**
 * The pages the docs tests cover: README.md and every `.md` file under docs/, relative to the root; not the
 * design notes under docs/design/, which are working notes for contributors, not documentation.
 */
export function docPages(): string[] {
  const pages = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const relative = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (relative !== 'docs/design') walk(relative);
      } else if (entry.name.endsWith('.md')) pages.push(relative);
    }
  };
  walk('docs');
  return pages.sort();
}

/** The text of a page (relative to the root). */
export function pageText(page: string): string {
  return readFileSync(path.join(ROOT, page), 'utf8');
}

interface Scanned {
  blocks: CodeBlock[];
  headings: Heading[];
  links: Link[];
}

const FENCE = /^(\s*)(```+)(.*)$/;

/** Reads a page once: its blocks, its headings and its links (those inside code never count). */
export function scanPage(page: string): Scanned {
  const lines = pageText(page).split('\n');
  const blocks: CodeBlock[] = [];
  const headings: Heading[] = [];
  const links: Link[] = [];
  const seen = new Map<string, number>();
  let heading = '';
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const fence = FENCE.exec(line);
    if (fence) {
      const [, indent = '', ticks = '```', info = ''] = fence;
      const body: string[] = [];
      let end = index + 1;
      for (; end < lines.length; end++) {
        const closing = lines[end] ?? '';
        if (closing.trim() === ticks) break;
        // A block in a list item is indented; its lines carry the same indent.
        body.push(closing.startsWith(indent) ? closing.slice(indent.length) : closing);
      }
      if (end >= lines.length) throw new Error(`${page}:${index + 1}: a code block is never closed`);
      blocks.push({
        page,
        line: index + 1,
        lang: info.trim(),
        text: body.map((text) => `${text}\n`).join(''),
        heading,
      });
      index = end;
      continue;
    }
    const atx = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (atx) {
      heading = line;
      const base = slug(atx[2] ?? '');
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      headings.push({ line, depth: (atx[1] ?? '#').length, anchor: count === 0 ? base : `${base}-${count}` });
    }
    // Links outside inline code spans.
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      links.push({ page, line: index + 1, target: match[1] ?? '' });
    }
  }
  return { blocks, headings, links };
}

/**
 * The anchor GitHub makes of a heading's text: inline markup dropped, lower case, punctuation removed
 * (letters, digits, `_`, `-` and spaces kept), each space a `-`.
 */
export function slug(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every code block of every page. */
export function allBlocks(): CodeBlock[] {
  return docPages().flatMap((page) => scanPage(page).blocks);
}

/**
 * The body of the `nth` (0-based) fenced block of `lang` under the heading `heading` of `page` (a whole
 * heading line, `#`s included): blocks of that language after the heading, before the next heading of the
 * same depth or shallower.
 */
export function docBlock(page: string, heading: string, lang: string, nth = 0): string {
  const { blocks, headings } = scanPage(page);
  const at = headings.findIndex((candidate) => candidate.line === heading);
  if (at < 0) throw new Error(`${page} has no heading "${heading}"`);
  const depth = headings[at]?.depth ?? 1;
  const section = new Set([heading]);
  for (const next of headings.slice(at + 1)) {
    if (next.depth <= depth) break;
    section.add(next.line);
  }
  const found = blocks.filter((block) => block.lang === lang && section.has(block.heading))[nth];
  if (!found) throw new Error(`${page} has no \`\`\`${lang} block #${nth} under "${heading}"`);
  return found.text;
}
