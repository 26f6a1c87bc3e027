/**
 * What each caller may see and call through the gateway: a policy of rules, each naming the callers it
 * applies to (`when`: how they were recognised, scopes they hold, claims of their token) and what it allows
 * and denies of tools, prompts and resources, by server and name, with globs (`*` any run of characters,
 * `?` one). A caller may use what any rule that applies to it allows and none of them denies: deny wins,
 * and what no rule allows is denied. Without a policy everything is allowed to every caller.
 *
 * Lists (`tools/list`, `prompts/list`, `resources/list`, `resources/templates/list`) never show what is
 * denied; a request for it is refused (`-32603`, `data: { server, kind: 'forbidden' }`), the name read from
 * the request's JSON-RPC body. Tools and prompts are named as their upstream names them (not with the
 * gateway's prefix), resources and templates by URI; the status resource belongs to the server
 * `agentwire-gateway`.
 */
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { MCPGatewayCaller } from './caller.js';

/** What a rule allows or denies: per kind, server-name glob → name globs. */
export interface MCPGatewayGrants {
  tools?: Record<string, string[]>;
  prompts?: Record<string, string[]>;
  resources?: Record<string, string[]>;
}

/** The callers a rule applies to; every condition given must hold. */
export interface MCPGatewayRuleMatch {
  /** How the caller was recognised (caller.ts), one or any of several. */
  auth?: MCPGatewayCaller['auth'] | MCPGatewayCaller['auth'][];
  /** Scopes the caller's token must all hold. */
  scopes?: string[];
  /**
   * Claims of the caller's JWT: each must equal the value (or, for a list, one of the values); a claim that
   * is an array matches when it holds the value.
   */
  claims?: Record<string, string | number | boolean | (string | number | boolean)[]>;
}

/** One rule of the policy. */
export interface MCPGatewayRule {
  /** Whom it applies to. Default: every caller. */
  when?: MCPGatewayRuleMatch;
  allow?: MCPGatewayGrants;
  deny?: MCPGatewayGrants;
}

/** The access policy: its rules, in any order (the outcome does not depend on it). */
export interface MCPGatewayPolicy {
  rules: MCPGatewayRule[];
}

/** The kinds of things the policy governs. */
export type GrantKind = keyof MCPGatewayGrants;

/** The server the status resource belongs to, for the policy. */
export const GATEWAY_SERVER = 'agentwire-gateway';

type Matcher = (server: string, name: string) => boolean;

interface CompiledRule {
  applies: (caller: MCPGatewayCaller) => boolean;
  allow: Record<GrantKind, Matcher>;
  deny: Record<GrantKind, Matcher>;
}

/** What one caller may do. `key` is the same for callers the same rules apply to (a cache key). */
export interface CallerGrants {
  readonly key: string;
  allows(kind: GrantKind, server: string, name: string): boolean;
}

const EVERYTHING: CallerGrants = { key: '*', allows: () => true };

/** The compiled policy; see the file header. */
export class AccessPolicy {
  readonly #rules: CompiledRule[] | undefined;

  /** @param policy - none: everything is allowed to everyone. */
  constructor(policy: MCPGatewayPolicy | undefined) {
    this.#rules = policy?.rules.map(compileRule);
  }

  /** Whether a policy is in force (lists are filtered). */
  get active(): boolean {
    return this.#rules !== undefined;
  }

  /** What `caller` may see and call. */
  grants(caller: MCPGatewayCaller): CallerGrants {
    if (!this.#rules) return EVERYTHING;
    const applying = this.#rules.flatMap((rule, index) => (rule.applies(caller) ? [{ rule, index }] : []));
    return {
      key: applying.map(({ index }) => index).join(','),
      allows: (kind, server, name) =>
        applying.some(({ rule }) => rule.allow[kind](server, name)) &&
        !applying.some(({ rule }) => rule.deny[kind](server, name)),
    };
  }
}

/** The refusal of a request the policy denies. */
export function forbidden(method: string, server: string, name: string): ProtocolError {
  return new ProtocolError(
    ProtocolErrorCode.InternalError,
    `Forbidden: ${method} "${name}" of MCP server "${server}" is not allowed for this caller`,
    { server, kind: 'forbidden' },
  );
}

function compileRule(rule: MCPGatewayRule): CompiledRule {
  const grants = (side: MCPGatewayGrants | undefined) => ({
    tools: grantMatcher(side?.tools),
    prompts: grantMatcher(side?.prompts),
    resources: grantMatcher(side?.resources),
  });
  return { applies: compileMatch(rule.when), allow: grants(rule.allow), deny: grants(rule.deny) };
}

/** A matcher of (server, name) for grants of one kind (server-name glob → name globs). */
export function grantMatcher(grants: Record<string, string[]> | undefined): Matcher {
  if (grants === undefined) return () => false;
  const entries = Object.entries(grants).map(([server, names]) => ({
    server: glob(server),
    names: names.map(glob),
  }));
  return (server, name) =>
    entries.some((entry) => entry.server.test(server) && entry.names.some((one) => one.test(name)));
}

function compileMatch(when: MCPGatewayRuleMatch | undefined): (caller: MCPGatewayCaller) => boolean {
  if (when === undefined) return () => true;
  const auths = when.auth === undefined ? undefined : [when.auth].flat();
  return (caller) =>
    (auths === undefined || auths.includes(caller.auth)) &&
    (when.scopes ?? []).every((scope) => caller.scopes.includes(scope)) &&
    Object.entries(when.claims ?? {}).every(([claim, wanted]) => claimMatches(caller.claims[claim], wanted));
}

function claimMatches(
  held: unknown,
  wanted: string | number | boolean | (string | number | boolean)[],
): boolean {
  const values = [wanted].flat();
  const heldValues = Array.isArray(held) ? held : [held];
  return values.some((value) => heldValues.includes(value));
}

/** A glob as an anchored regular expression: `*` any run of characters, `?` one; the rest literal. */
function glob(pattern: string): RegExp {
  const source = [...pattern]
    .map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\/-]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`, 's');
}
