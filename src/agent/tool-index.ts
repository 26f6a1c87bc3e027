/**
 * A full-text index over the agent's tools for `search_tools`: names (split into words, `read_text_file` →
 * `read text file`, `getUser` → `get user`), descriptions and the input schema's parameter names, ranked
 * with BM25+ by MiniSearch (prefix and fuzzy matches weigh less than exact words). MiniSearch is imported
 * on the first search, so an agent that never searches never loads it.
 */
import type { JsonSchema } from '../core/json.js';
import type { ToolEntry } from './tool-registry.js';

/** One ranked match: the tool's entry and its score (higher is better; only the order means something). */
export interface ToolMatch {
  entry: ToolEntry;
  score: number;
}

interface Indexed {
  search(query: string, limit: number): ToolMatch[];
}

interface Doc {
  id: number;
  name: string;
  words: string;
  description: string;
  parameters: string;
}

/** Words of an identifier: separators and camelCase boundaries split it. */
export function identifierWords(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Top-level property names of an input schema, and their words. */
function parameterNames(schema: JsonSchema): string {
  const properties = (schema as { properties?: unknown }).properties;
  if (typeof properties !== 'object' || properties === null) return '';
  return Object.keys(properties)
    .map((name) => `${name} ${identifierWords(name)}`)
    .join(' ');
}

/**
 * The index of one set of tools, built on the first search and kept while the set stays the same (same tool
 * objects under the same model-facing names, in the same order).
 */
export class ToolIndex {
  #entries: readonly ToolEntry[] = [];
  #built: Promise<Indexed> | undefined;

  /** Ranks `entries` for `query`; at most `limit` matches, best first. */
  async search(entries: readonly ToolEntry[], query: string, limit: number): Promise<ToolMatch[]> {
    if (!this.#built || !sameEntries(this.#entries, entries)) {
      this.#entries = entries;
      this.#built = build(entries);
    }
    return (await this.#built).search(query, limit);
  }
}

function sameEntries(a: readonly ToolEntry[], b: readonly ToolEntry[]): boolean {
  return a.length === b.length && a.every((e, i) => e.tool === b[i]?.tool && e.modelName === b[i]?.modelName);
}

async function build(entries: readonly ToolEntry[]): Promise<Indexed> {
  const { default: MiniSearch } = await import('minisearch');
  const index = new MiniSearch<Doc>({
    fields: ['name', 'words', 'description', 'parameters'],
    // Words of names: `fs1__read_text_file` is found by "read file"; camelCase is split the same way.
    tokenize: (text) => identifierWords(text).split(' ').filter(Boolean),
    searchOptions: {
      boost: { name: 3, words: 3, description: 1, parameters: 1.5 },
      prefix: true,
      fuzzy: 0.2,
      combineWith: 'OR',
    },
  });
  index.addAll(
    entries.map((entry, id) => ({
      id,
      name: entry.modelName,
      words: identifierWords(entry.tool.name),
      description: entry.tool.description,
      parameters: parameterNames(entry.tool.inputSchema),
    })),
  );
  return {
    search(query, limit) {
      return index
        .search(query)
        .flatMap((hit) => {
          const entry = entries[hit.id as number];
          return entry === undefined ? [] : [{ entry, score: hit.score }];
        })
        .slice(0, limit);
    },
  };
}
