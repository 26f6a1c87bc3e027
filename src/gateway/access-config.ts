/**
 * The access keys of a configuration file's `gateway` section (options.ts reads the rest): `jwt` (tokens of
 * an OpenID issuer), `policy` (what each caller may see and call), `rateLimits` and `audit` (`"stderr"` or
 * `{ "file": "<path>" }`). Every object is checked for its keys, and a key it does not know is refused with
 * its path (`gateway.policy.rules[1].allow.tools`), as for the section's other keys.
 */
import { isRecord } from '../core/json.js';
import { MCPConfigError } from '../mcp/for-gateway.js';
import type {
  MCPGatewayGrants,
  MCPGatewayPolicy,
  MCPGatewayRule,
  MCPGatewayRuleMatch,
} from './access-policy.js';
import type { MCPGatewayJwtOptions } from './jwt-verifier.js';
import type { MCPGatewayRate, MCPGatewayRateLimits } from './rate-limits.js';

/** The access settings of a `gateway` section. */
export interface MCPGatewayAccessSettings {
  jwt?: MCPGatewayJwtOptions & { resource?: string };
  policy?: MCPGatewayPolicy;
  rateLimits?: MCPGatewayRateLimits;
  /** `audit`: `stderr`, or a file path the audit lines are appended to. */
  auditLog?: string;
}

/** The keys of the `gateway` section this file reads. */
export const ACCESS_KEYS = ['jwt', 'policy', 'rateLimits', 'audit'] as const;

type Fail = (path: string, problem: string) => MCPConfigError;

/**
 * Reads the access keys of `section`.
 * @throws MCPConfigError naming the file and the key's path when one is unknown or has the wrong shape.
 */
export function readAccessSettings(file: string, section: Record<string, unknown>): MCPGatewayAccessSettings {
  const fail: Fail = (path, problem) =>
    new MCPConfigError(`config ${file}: "gateway.${path}" ${problem}`, { file, field: path });
  const settings: MCPGatewayAccessSettings = {};
  if (section.jwt !== undefined)
    settings.jwt = jwt(section.jwt, fail) as NonNullable<MCPGatewayAccessSettings['jwt']>;
  if (section.policy !== undefined) settings.policy = policy(section.policy, fail);
  if (section.rateLimits !== undefined) settings.rateLimits = rateLimits(section.rateLimits, fail);
  if (section.audit !== undefined) settings.auditLog = audit(section.audit, fail);
  return settings;
}

function object(value: unknown, path: string, keys: readonly string[], fail: Fail): Record<string, unknown> {
  if (!isRecord(value)) throw fail(path, 'must be an object');
  const unknown = Object.keys(value).find((key) => !keys.includes(key));
  if (unknown !== undefined)
    throw fail(`${path}.${unknown}`, `is not a setting here (known: ${keys.join(', ')})`);
  return value;
}

function text(value: unknown, path: string, fail: Fail): string {
  if (typeof value !== 'string' || value === '') throw fail(path, 'must be a non-empty string');
  return value;
}

function texts(value: unknown, path: string, fail: Fail): string[] {
  if (!Array.isArray(value) || !value.every((one) => typeof one === 'string' && one !== ''))
    throw fail(path, 'must be an array of non-empty strings');
  return value;
}

function positive(value: unknown, path: string, fail: Fail, whole = true): number {
  if (typeof value !== 'number' || !(value > 0) || (whole && !Number.isInteger(value)))
    throw fail(path, whole ? 'must be a whole number ≥ 1' : 'must be a number > 0');
  return value;
}

function jwt(value: unknown, fail: Fail): NonNullable<MCPGatewayAccessSettings['jwt']> {
  const keys = ['issuer', 'audience', 'jwksUri', 'clockToleranceSeconds', 'algorithms', 'resource'];
  const raw = object(value, 'jwt', keys, fail);
  const out: NonNullable<MCPGatewayAccessSettings['jwt']> = {
    issuer: text(raw.issuer, 'jwt.issuer', fail),
    audience: text(raw.audience, 'jwt.audience', fail),
  };
  if (raw.jwksUri !== undefined) out.jwksUri = text(raw.jwksUri, 'jwt.jwksUri', fail);
  if (raw.resource !== undefined) out.resource = text(raw.resource, 'jwt.resource', fail);
  if (raw.algorithms !== undefined) out.algorithms = texts(raw.algorithms, 'jwt.algorithms', fail);
  if (raw.clockToleranceSeconds !== undefined) {
    const seconds = raw.clockToleranceSeconds;
    if (!Number.isInteger(seconds) || (seconds as number) < 0)
      throw fail('jwt.clockToleranceSeconds', 'must be a whole number ≥ 0');
    out.clockToleranceSeconds = seconds as number;
  }
  return out;
}

function grants(value: unknown, path: string, fail: Fail): MCPGatewayGrants {
  const raw = object(value, path, ['tools', 'prompts', 'resources'], fail);
  const out: MCPGatewayGrants = {};
  for (const kind of ['tools', 'prompts', 'resources'] as const) {
    const byServer = raw[kind];
    if (byServer === undefined) continue;
    if (!isRecord(byServer))
      throw fail(`${path}.${kind}`, 'must map server names (globs) to arrays of names (globs)');
    out[kind] = Object.fromEntries(
      Object.entries(byServer).map(([server, names]) => [
        server,
        texts(names, `${path}.${kind}.${server}`, fail),
      ]),
    );
  }
  return out;
}

function match(value: unknown, path: string, fail: Fail): MCPGatewayRuleMatch {
  const raw = object(value, path, ['auth', 'scopes', 'claims'], fail);
  const out: MCPGatewayRuleMatch = {};
  if (raw.auth !== undefined) {
    const auths = [raw.auth].flat();
    const known = ['static', 'jwt', 'oauth', 'stdio'];
    if (auths.length === 0 || !auths.every((one) => typeof one === 'string' && known.includes(one)))
      throw fail(`${path}.auth`, `must be one of ${known.join(', ')}, or an array of them`);
    out.auth = raw.auth as MCPGatewayRuleMatch['auth'] & string;
  }
  if (raw.scopes !== undefined) out.scopes = texts(raw.scopes, `${path}.scopes`, fail);
  if (raw.claims !== undefined) {
    if (!isRecord(raw.claims)) throw fail(`${path}.claims`, 'must be an object');
    const scalar = (one: unknown) => ['string', 'number', 'boolean'].includes(typeof one);
    for (const [claim, wanted] of Object.entries(raw.claims))
      if (!(scalar(wanted) || (Array.isArray(wanted) && wanted.length > 0 && wanted.every(scalar))))
        throw fail(`${path}.claims.${claim}`, 'must be a string, number or boolean, or an array of them');
    out.claims = raw.claims as NonNullable<MCPGatewayRuleMatch['claims']>;
  }
  return out;
}

function policy(value: unknown, fail: Fail): MCPGatewayPolicy {
  const raw = object(value, 'policy', ['rules'], fail);
  if (!Array.isArray(raw.rules)) throw fail('policy.rules', 'must be an array of rules');
  const rules = raw.rules.map((one, index): MCPGatewayRule => {
    const path = `policy.rules[${index}]`;
    const rule = object(one, path, ['when', 'allow', 'deny'], fail);
    return {
      ...(rule.when !== undefined && { when: match(rule.when, `${path}.when`, fail) }),
      ...(rule.allow !== undefined && { allow: grants(rule.allow, `${path}.allow`, fail) }),
      ...(rule.deny !== undefined && { deny: grants(rule.deny, `${path}.deny`, fail) }),
    };
  });
  return { rules };
}

function rate(
  value: unknown,
  path: string,
  fail: Fail,
  extra: string[] = [],
): MCPGatewayRate & Record<string, unknown> {
  const raw = object(value, path, ['calls', 'perSeconds', ...extra], fail);
  return {
    ...raw,
    calls: positive(raw.calls, `${path}.calls`, fail),
    perSeconds: positive(raw.perSeconds, `${path}.perSeconds`, fail, false),
  };
}

function rateLimits(value: unknown, fail: Fail): MCPGatewayRateLimits {
  const raw = object(value, 'rateLimits', ['perCaller', 'perTool'], fail);
  const out: MCPGatewayRateLimits = {};
  if (raw.perCaller !== undefined) {
    const { calls, perSeconds } = rate(raw.perCaller, 'rateLimits.perCaller', fail);
    out.perCaller = { calls, perSeconds };
  }
  if (raw.perTool !== undefined) {
    if (!Array.isArray(raw.perTool)) throw fail('rateLimits.perTool', 'must be an array of limits');
    out.perTool = raw.perTool.map((one, index) => {
      const path = `rateLimits.perTool[${index}]`;
      const { calls, perSeconds, tools } = rate(one, path, fail, ['tools']);
      const named = grants({ tools }, path, fail).tools;
      if (named === undefined)
        throw fail(`${path}.tools`, 'must map server names (globs) to arrays of tool names (globs)');
      return { calls, perSeconds, tools: named };
    });
  }
  return out;
}

function audit(value: unknown, fail: Fail): string {
  if (value === 'stderr') return value;
  if (!isRecord(value)) throw fail('audit', 'must be "stderr" or { "file": "<path>" }');
  const raw = object(value, 'audit', ['file'], fail);
  return text(raw.file, 'audit.file', fail);
}
