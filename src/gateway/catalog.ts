/**
 * The gateway's catalog: every upstream's tools, prompts, resources and resource templates merged into one
 * list each, tools and prompts under prefixed names, and the way back from a name or URI to its upstream.
 *
 * Tools are the exposed ones of `MCPServers` (after each entry's `allowTools` / `blockTools`), in the order
 * servers were configured, each server's in its own order. Prompts are prefixed the same way; resources and
 * templates keep their URIs (a URI names the resource itself, and clients may hold it), and a read goes to
 * the upstream that listed the URI, or whose template matches it.
 */
import { UriTemplate } from '@modelcontextprotocol/server';
import {
  DEFAULT_PREFIX_SEPARATOR,
  type MCPClient,
  type MCPServers,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  serverPrefix,
} from '../mcp/for-gateway.js';
import type { MCPGatewayNaming } from './options.js';
import { type KnownLists, listOf, type UpstreamTool, upstreamTools } from './tool-list.js';

/** Whether the item `name` (an upstream's name, or a URI) of upstream `server` is shown. */
type Visible = (server: string, name: string) => boolean;
const ALL: Visible = () => true;

/** Where a gateway name leads: the upstream client and the name it knows. */
export interface MCPGatewayTarget {
  client: MCPClient;
  name: string;
}

/** Names of the gateway, mapped to and from each upstream's. */
export class GatewayCatalog {
  readonly #servers: MCPServers;
  readonly #naming: MCPGatewayNaming;
  // URI → server, from the last resources/list; a read of another URI tries the templates.
  readonly #resourceOwners = new Map<string, string>();
  // What each upstream last listed, kept while it is down (tool-list.ts).
  readonly #known: KnownLists = new Map();
  readonly #failed: ((client: MCPClient, error: unknown) => void) | undefined;
  // The merged tool list and its index by gateway name, built on demand and dropped on every change.
  #tools: UpstreamTool[] | undefined;
  #byName: Map<string, UpstreamTool> | undefined;
  /** Per tool definition: whether it declares `x-mcp-header` parameters. */
  readonly #paramHeaders = new WeakMap<UpstreamTool, boolean>();
  // The definitions last listed, as JSON: a change is announced only when they differ.
  #listed = '';

  /** @param failed - told of an upstream's failed list request (a forgotten session is renewed). */
  constructor(
    servers: MCPServers,
    naming: MCPGatewayNaming = {},
    failed?: (client: MCPClient, error: unknown) => void,
  ) {
    this.#servers = servers;
    this.#naming = naming;
    this.#failed = failed;
  }

  /** `<prefix><separator><name>`, or `name` for a server configured with `prefix: false`. */
  gatewayName(server: string, name: string): string {
    const prefix = this.#naming.prefixes?.[server];
    if (prefix === false) return name;
    return `${serverPrefix(prefix ?? server)}${this.#naming.separator ?? DEFAULT_PREFIX_SEPARATOR}${name}`;
  }

  /**
   * Every exposed tool of every upstream, as `tools/list` gives it, renamed; an upstream that is down with
   * the tools it last listed (tool-list.ts).
   */
  tools(): UpstreamTool[] {
    if (!this.#tools) {
      this.#tools = upstreamTools(
        this.#servers,
        (server, name) => this.gatewayName(server, name),
        this.#known,
      );
      this.#listed = JSON.stringify(this.#tools.map((tool) => tool.definition));
    }
    return this.#tools;
  }

  /**
   * Whether a call of gateway tool `name` may be sent again when its upstream's session was lost before
   * it was answered: the tool says it only reads, or is idempotent (MCP spec 2025-11-25, "Tools > Tool
   * Annotations": `readOnlyHint`, `idempotentHint`).
   */
  mayRepeat(name: string): boolean {
    const annotations = this.#tool(name)?.definition.annotations;
    return annotations?.readOnlyHint === true || annotations?.idempotentHint === true;
  }

  /** The upstream of gateway tool `name`, or undefined when no exposed tool has that name. */
  resolveTool(name: string): MCPGatewayTarget | undefined {
    const found = this.#tool(name);
    return found && { client: found.client, name: found.upstreamName };
  }

  /**
   * Whether gateway tool `name` may run as a task (its `execution.taskSupport` is "optional" or
   * "required"; MCP spec 2025-11-25, "Tasks > Tool-level negotiation").
   */
  canRunAsTask(name: string): boolean {
    const execution = this.#tool(name)?.definition.execution as { taskSupport?: unknown } | undefined;
    return execution?.taskSupport === 'optional' || execution?.taskSupport === 'required';
  }

  /**
   * Whether gateway tool `name`'s input schema declares `x-mcp-header` parameters (MCP spec 2026-07-28,
   * "Transports > Streamable HTTP > Custom Headers from Tool Parameters"): headers only the client sends.
   */
  declaresParamHeaders(name: string): boolean {
    const tool = this.#tool(name);
    if (!tool) return false;
    let declares = this.#paramHeaders.get(tool);
    if (declares === undefined) {
      declares = JSON.stringify(tool.definition.inputSchema ?? {}).includes('"x-mcp-header"');
      this.#paramHeaders.set(tool, declares);
    }
    return declares;
  }

  #tool(name: string): UpstreamTool | undefined {
    if (!this.#byName) {
      this.#byName = new Map();
      // The first of two tools under one name wins, as a client reading the list in order would take it.
      for (const tool of this.tools())
        if (!this.#byName.has(tool.definition.name)) this.#byName.set(tool.definition.name, tool);
    }
    return this.#byName.get(name);
  }

  /**
   * Builds the merged tool list again: call it whenever an upstream's tools or state change (the gateway
   * does, on every `MCPServers` event). Returns whether the list differs from the one listed before.
   */
  toolsChanged(): boolean {
    const before = this.#listed;
    this.#tools = undefined;
    this.#byName = undefined;
    this.tools();
    return this.#listed !== before;
  }

  /**
   * Every upstream's prompts, renamed; upstreams without prompts add none. `visible(server, name)` (the
   * upstream's name) leaves out the others.
   */
  async prompts(visible: Visible = ALL): Promise<Prompt[]> {
    const lists = await this.#list('prompts/list', (client) => client.listPrompts());
    return lists.flatMap(({ client, items }) =>
      items
        .filter((prompt) => visible(client.name, prompt.name))
        .map((prompt) => ({ ...prompt, name: this.gatewayName(client.name, prompt.name) })),
    );
  }

  /** The upstream of gateway prompt `name`. */
  async resolvePrompt(name: string): Promise<MCPGatewayTarget | undefined> {
    const lists = await this.#list('prompts/list', (client) => client.listPrompts());
    for (const { client, items } of lists) {
      const prompt = items.find((item) => this.gatewayName(client.name, item.name) === name);
      if (prompt) return { client, name: prompt.name };
    }
    return undefined;
  }

  /**
   * Every upstream's resources, URIs unchanged (those `visible(server, uri)`); remembers which upstream
   * listed each URI.
   */
  async resources(visible: Visible = ALL): Promise<Resource[]> {
    const lists = await this.#list('resources/list', (client) => client.listResources());
    for (const { client, items } of lists)
      for (const resource of items) this.#resourceOwners.set(resource.uri, client.name);
    return lists.flatMap(({ client, items }) => items.filter((item) => visible(client.name, item.uri)));
  }

  /** Every upstream's resource templates (those `visible(server, uriTemplate)`). */
  async resourceTemplates(visible: Visible = ALL): Promise<ResourceTemplate[]> {
    const lists = await this.#list('resources/templates/list', (client) => client.listResourceTemplates());
    return lists.flatMap(({ client, items }) =>
      items.filter((item) => visible(client.name, item.uriTemplate)),
    );
  }

  /** The upstream of the resource template `uriTemplate` (its first lister), for `completion/complete`. */
  async resolveTemplate(uriTemplate: string): Promise<MCPGatewayTarget | undefined> {
    const lists = await this.#list('resources/templates/list', (client) => client.listResourceTemplates());
    const owner = lists.find(({ items }) => items.some((item) => item.uriTemplate === uriTemplate));
    return owner && { client: owner.client, name: uriTemplate };
  }

  /** The upstream of resource `uri`: the one that listed it, else the first whose template matches it. */
  async resolveResource(uri: string): Promise<MCPClient | undefined> {
    const known = this.#resourceOwners.get(uri);
    const owner = known === undefined ? undefined : this.#servers.get(known);
    if (owner) return owner;
    const templates = await this.#list('resources/templates/list', (client) =>
      client.listResourceTemplates(),
    );
    for (const { client, items } of templates) {
      if (items.some((template) => matches(template.uriTemplate, uri))) return client;
    }
    await this.resources();
    const listed = this.#resourceOwners.get(uri);
    return listed === undefined ? undefined : this.#servers.get(listed);
  }

  #list<T>(key: string, list: (client: MCPClient) => Promise<T[]>) {
    return listOf(this.#servers, key, list, this.#known, this.#failed);
  }
}

function matches(template: string, uri: string): boolean {
  try {
    return new UriTemplate(template).match(uri) !== null;
  } catch {
    // A template the SDK cannot parse matches nothing.
    return false;
  }
}
