/**
 * Every relative link of the README and of docs/ leads somewhere: to a file of the repository and, when it
 * has one, to an anchor of that page (GitHub's anchors: markdown.ts). Links to other sites are not fetched.
 * And the README stays a page to learn from: at most 250 lines, its map naming every page of docs/.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers.js';
import { docPages, pageText, scanPage } from './markdown.js';

/** A page's anchors. */
function anchors(page: string): Set<string> {
  return new Set(scanPage(page).headings.map((heading) => heading.anchor));
}

describe('links in the README and docs/', () => {
  it('lead to files that exist, and to anchors those pages have', () => {
    const broken: string[] = [];
    for (const page of docPages()) {
      for (const link of scanPage(page).links) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) continue; // https:, mailto:, …
        const [file = '', anchor] = link.target.split('#');
        const target =
          file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
        const where = `${page}:${link.line}: ${link.target}`;
        if (target.startsWith('..') || !existsSync(path.join(ROOT, target))) {
          broken.push(`${where} (no file ${target})`);
          continue;
        }
        if (anchor !== undefined && target.endsWith('.md') && !anchors(target).has(anchor)) {
          broken.push(`${where} (no heading with anchor #${anchor} in ${target})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('give no page two headings with one anchor, so that every anchor names one place', () => {
    const repeated = docPages().flatMap((page) =>
      scanPage(page)
        .headings.filter(
          (heading) => /-\d+$/.test(heading.anchor) && anchors(page).has(heading.anchor.replace(/-\d+$/, '')),
        )
        .map((heading) => `${page}: ${heading.line}`),
    );
    expect(repeated).toEqual([]);
  });
});

describe('the README', () => {
  it('is at most 250 lines', () => {
    expect(pageText('README.md').split('\n').length - 1).toBeLessThanOrEqual(250);
  });

  it('maps every page of docs/', () => {
    const linked = new Set(scanPage('README.md').links.map((link) => link.target.split('#')[0]));
    const pages = docPages().filter((page) => page.startsWith('docs/'));
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });
});
