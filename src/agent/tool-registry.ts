/**
 * The agent's tools, from every source, as one table the model sees: provider-valid unique names,
 * normalised schemas, and the way back from a model-facing name to the tool. Rebuilt at every turn from
 * live sources, so an MCP server's `toolsChanged` reaches the next turn without bookkeeping.
 */
import type { Tool } from '../core/tool.js';
import { carriesServerPrefix, prefixedToolName } from '../mcp/servers/prefix.js';
import type { Model, ModelToolSpec } from '../providers/model.js';
import { mapToolNames } from './tool-names.js';

/**
 * When tool names get their source as a prefix (`server__tool`, built by the same rule as
 * `MCPServers.getTools({ prefix: true })`):
 * - `on-collision` (default): only tools whose names clash across sources;
 * - `always`: every tool that has a source (MCP tools, built-ins), never tools without one;
 * - `none`: never; a clash is an error when tools are added, and a skipped tool with a warning when it
 *   appears later (an MCP server's list changed).
 *
 * A tool that already carries its server prefix (an `MCPPrefixedTool`, from `MCPServers.getTools({ prefix:
 * true })`) keeps its name under every policy and every group prefix: a name is never prefixed twice. When
 * such a name clashes, the clash is reported like any other (a warning, or an error under `none`).
 */
export type ToolNamePrefixPolicy = 'none' | 'on-collision' | 'always';

/** A live list of tools: the agent's own tools, or an MCP server's. */
export interface ToolGroup {
  /** Source used when a tool has no `source` of its own. */
  readonly source?: string;
  /**
   * A fixed prefix for every tool of the group (`addMcpServer(client, { prefix })`), except the tools that
   * already carry their server prefix.
   */
  readonly prefix?: string;
  list(): readonly Tool[];
  /** Budget of each of the group's results in bytes (`addMcpServer(client, { maxToolResultBytes })`). */
  readonly maxResultBytes?: number;
  /** Resolves once the group's list is up to date (an MCP server's pending `tools/list` refresh). Never rejects. */
  settled?(): Promise<void>;
  /**
   * What the source asks of the model (an MCP server's `instructions`), if anything. `offeredName` gives the
   * name one of the group's tools has in the last table built (prefixed on a clash), `undefined` before one.
   */
  instructions?(offeredName: (tool: Tool) => string | undefined): string | undefined;
}

/** One tool as offered to the model. */
export interface ToolEntry {
  readonly tool: Tool;
  readonly source: string;
  readonly modelName: string;
  readonly spec: ModelToolSpec;
  /** The budget of the group the tool comes from, in bytes, if it has one. */
  readonly maxResultBytes?: number;
}

/**
 * A problem that makes a tool unavailable to the model, or a change in how tools are offered; never silent.
 * - `collision`: its name clashes and cannot be told apart;
 * - `schema`: the provider cannot take its input schema;
 * - `unsupported`: the client cannot call it (it needs a protocol feature agentwire does not speak);
 * - `limit`: left out of requests to stay within the provider's tool count (`tools` names them all);
 * - `deferred`: the tools are more than `toolSearchThreshold` and found through the search tool (`tool`).
 */
export interface ToolWarning {
  message: string;
  /** The tool concerned (the first one, when there are several). */
  tool: string;
  /** Every tool concerned, when there are several (`limit`). */
  tools?: readonly string[];
  kind: 'collision' | 'schema' | 'unsupported' | 'limit' | 'deferred';
}

/** The tools of one turn. */
export interface ToolTable {
  readonly specs: ModelToolSpec[];
  readonly byModelName: ReadonlyMap<string, ToolEntry>;
  readonly warnings: ToolWarning[];
}

interface Candidate {
  tool: Tool;
  group: ToolGroup;
  source: string;
  wanted: string;
  fixed: boolean;
}

/** The agent's tool sources and the rules that turn them into a {@link ToolTable}. */
export class ToolRegistry {
  readonly #groups = new Set<ToolGroup>();
  readonly #policy: ToolNamePrefixPolicy;
  /** Each tool's model-facing name in the last table built, for the groups' instructions. */
  #offered = new WeakMap<Tool, string>();

  constructor(policy: ToolNamePrefixPolicy = 'on-collision') {
    this.#policy = policy;
  }

  /** Adds a source; returns a function that removes it. */
  add(group: ToolGroup): () => void {
    this.#groups.add(group);
    return () => this.#groups.delete(group);
  }

  /** Name clashes the current sources would cause (same rules as {@link build}). */
  collisions(): ToolWarning[] {
    return this.#resolveNames().warnings.filter((w) => w.kind === 'collision');
  }

  /**
   * The table for one turn. A tool whose schema `model` cannot take, or whose name clashes and cannot be
   * told apart, is left out and reported in `warnings`.
   */
  build(model: Model): ToolTable {
    const { candidates, warnings } = this.#resolveNames();
    const names = mapToolNames(candidates.map((c) => c.wanted));
    const byModelName = new Map<string, ToolEntry>();
    for (const candidate of candidates) {
      const modelName = names.get(candidate.wanted) ?? candidate.wanted;
      let inputSchema: ModelToolSpec['inputSchema'];
      try {
        inputSchema = model.normalizeToolSchema(candidate.tool.inputSchema);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        warnings.push({
          kind: 'schema',
          tool: candidate.tool.name,
          message: `tool "${candidate.tool.name}" from ${candidate.source} skipped: its input schema cannot be used with ${model.provider}: ${why}`,
        });
        continue;
      }
      const spec = { name: modelName, description: candidate.tool.description, inputSchema };
      const { maxResultBytes } = candidate.group;
      byModelName.set(modelName, {
        tool: candidate.tool,
        source: candidate.source,
        modelName,
        spec,
        ...(maxResultBytes === undefined ? {} : { maxResultBytes }),
      });
    }
    this.#offered = new WeakMap([...byModelName.values()].map((entry) => [entry.tool, entry.modelName]));
    return { specs: [...byModelName.values()].map((e) => e.spec), byModelName, warnings };
  }

  /** Resolves once every group's list is up to date (see {@link ToolGroup.settled}). */
  async settled(): Promise<void> {
    await Promise.all([...this.#groups].map((group) => group.settled?.()));
  }

  /** Each group's instructions, in the order the groups were added: `[source, text]`. */
  instructions(): [string, string][] {
    return [...this.#groups].flatMap((group) => {
      const text = group.instructions?.((tool) => this.#offered.get(tool))?.trim();
      return text ? [[group.source ?? 'local', text] as [string, string]] : [];
    });
  }

  #candidates(): Candidate[] {
    const seen = new Set<Tool>();
    const out: Candidate[] = [];
    for (const group of this.#groups) {
      for (const tool of group.list()) {
        if (seen.has(tool)) continue;
        seen.add(tool);
        const source = tool.source ?? group.source ?? 'local';
        if (carriesServerPrefix(tool)) {
          out.push({ tool, group, source, wanted: tool.name, fixed: true });
          continue;
        }
        const always = this.#policy === 'always' && source !== 'local';
        const prefix = group.prefix ?? (always ? source : undefined);
        const wanted = prefix === undefined ? tool.name : prefixedToolName(prefix, tool.name);
        out.push({ tool, group, source, wanted, fixed: prefix !== undefined });
      }
    }
    return out;
  }

  #resolveNames(): { candidates: Candidate[]; warnings: ToolWarning[] } {
    const candidates = this.#candidates();
    if (this.#policy === 'on-collision') {
      for (const clash of clashes(candidates)) {
        if (new Set(clash.map((c) => c.source)).size < 2) continue;
        for (const c of clash) if (!c.fixed) c.wanted = prefixedToolName(c.source, c.tool.name);
      }
    }
    const warnings: ToolWarning[] = [];
    const kept: Candidate[] = [];
    const taken = new Map<string, Candidate>();
    for (const c of candidates) {
      const unsupported = unsupportedBecause(c.tool);
      if (unsupported !== undefined) {
        const message = `tool "${c.tool.name}" from ${c.source} skipped: ${unsupported}`;
        warnings.push({ kind: 'unsupported', tool: c.tool.name, message });
        continue;
      }
      const holder = taken.get(c.wanted);
      if (holder === undefined) {
        taken.set(c.wanted, c);
        kept.push(c);
        continue;
      }
      warnings.push({
        kind: 'collision',
        tool: c.tool.name,
        message:
          `tool "${c.tool.name}" from ${c.source} skipped: its name "${c.wanted}" is already taken by ` +
          `"${holder.tool.name}" from ${holder.source} (use a server prefix or toolNamePrefix)`,
      });
    }
    return { candidates: kept, warnings };
  }
}

/**
 * Why the client cannot call `tool`, if it cannot: an MCP tool whose `execution.taskSupport` is `required`
 * on a server that does not declare task-augmented `tools/call` (MCP spec 2025-11-25, "Basic > Utilities >
 * Tasks > Tool-Level Negotiation"; `MCPTool.unavailableBecause`), so offering it would only give the model
 * an error. Task-required tools of servers that run tasks are offered: the client runs them as tasks.
 */
function unsupportedBecause(tool: Tool): string | undefined {
  // An `MCPTool` answers itself; an `MCPPrefixedTool` wraps one as `tool`.
  type Checked = { unavailableBecause?: () => string | undefined };
  const checked = (tool as Checked).unavailableBecause ? tool : (tool as { tool?: Checked }).tool;
  return (checked as Checked | undefined)?.unavailableBecause?.();
}

function clashes(candidates: Candidate[]): Candidate[][] {
  const byName = new Map<string, Candidate[]>();
  for (const c of candidates) byName.set(c.wanted, [...(byName.get(c.wanted) ?? []), c]);
  return [...byName.values()].filter((list) => list.length > 1);
}
