/** The `gateway` section of a configuration file and the entries' `prefix` fields, read by `readGatewaySettings`. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readGatewaySettings } from '../../src/gateway/index.js';
import { MCPConfigError } from '../../src/mcp/index.js';
import { tempDir } from '../helpers.js';

const { dir, remove } = tempDir('agentwire-gateway-options-');
afterAll(remove);

const file = (name: string, text: string) => {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
};

describe('readGatewaySettings', () => {
  it('reads every setting and prefix, from JSONC', () => {
    const at = file(
      'full.jsonc',
      `{
        // comments and trailing commas, as VS Code writes them
        "gateway": { "bearerTokenEnv": "TOKEN_VAR", "separator": ".", "maxSubscriptions": 8,
                     "maxRequestBodyBytes": 1024, "allowedHosts": ["gateway.internal"], },
        "servers": { "a": { "command": "x", "prefix": "alpha" }, "b": { "command": "y", "prefix": false }, "c": { "command": "z" } },
      }`,
    );
    expect(readGatewaySettings(at)).toEqual({
      bearerTokenEnv: 'TOKEN_VAR',
      separator: '.',
      maxSubscriptions: 8,
      maxRequestBodyBytes: 1024,
      allowedHosts: ['gateway.internal'],
      prefixes: { a: 'alpha', b: false },
    });
  });

  it('reads the Redis event bus settings', () => {
    const at = file(
      'redis.json',
      '{"gateway": {"redisUrl": "redis://:pw@redis.internal:6380/2", "redisChannelPrefix": "gw:"}, "mcpServers": {}}',
    );
    expect(readGatewaySettings(at)).toEqual({
      redisUrl: 'redis://:pw@redis.internal:6380/2',
      redisChannelPrefix: 'gw:',
    });
  });

  it('reads the access settings: jwt, policy, rate limits, audit', () => {
    const gateway = {
      jwt: {
        issuer: 'https://idp.example.com',
        audience: 'https://gateway.example.com/mcp',
        clockToleranceSeconds: 10,
        algorithms: ['RS256'],
      },
      policy: {
        rules: [
          { when: { scopes: ['mcp:admin'] }, allow: { tools: { '*': ['*'] } } },
          {
            when: { auth: 'jwt', claims: { groups: ['support', 'ops'] } },
            allow: { tools: { fs: ['read_*'] }, resources: { fs: ['file:///srv/*'] } },
            deny: { tools: { fs: ['read_secret'] } },
          },
        ],
      },
      rateLimits: {
        perCaller: { calls: 600, perSeconds: 60 },
        perTool: [{ tools: { everything: ['trigger-*'] }, calls: 5, perSeconds: 0.5 }],
      },
    };
    const at = file(
      'access.json',
      JSON.stringify({ gateway: { ...gateway, audit: { file: '/var/log/gw.jsonl' } } }),
    );
    expect(readGatewaySettings(at)).toEqual({ ...gateway, auditLog: '/var/log/gw.jsonl' });
    expect(readGatewaySettings(file('stderr.json', '{"gateway": {"audit": "stderr"}}'))).toEqual({
      auditLog: 'stderr',
    });
  });

  it('reads nothing from a file without a gateway section or prefixes', () => {
    expect(readGatewaySettings(file('plain.json', '{"mcpServers": {"a": {"command": "x"}}}'))).toEqual({});
  });

  it.each([
    ['{"gateway": []}', '"gateway" must be an object', 'gateway'],
    [
      '{"gateway": {"maxSubscriptions": 0}}',
      '"gateway.maxSubscriptions" must be a whole number ≥ 1',
      'maxSubscriptions',
    ],
    [
      '{"gateway": {"bearerTokenEnv": ""}}',
      '"gateway.bearerTokenEnv" must be a non-empty string',
      'bearerTokenEnv',
    ],
    [
      '{"gateway": {"allowedHosts": "x"}}',
      '"gateway.allowedHosts" must be an array of strings',
      'allowedHosts',
    ],
    [
      '{"gateway": {"maxSubscription": 8}}',
      '"gateway.maxSubscription" is not a gateway setting (known: bearerTokenEnv, separator, maxSubscriptions, maxRequestBodyBytes, allowedHosts, redisUrl, redisChannelPrefix, jwt, policy, rateLimits, audit, sessionSecretEnv)',
      'maxSubscription',
    ],
    ['{"gateway": {"redisUrl": 6379}}', '"gateway.redisUrl" must be a non-empty string', 'redisUrl'],
    [
      '{"gateway": {"jwt": {"issuer": "https://i"}}}',
      '"gateway.jwt.audience" must be a non-empty string',
      'jwt.audience',
    ],
    [
      '{"gateway": {"jwt": {"issuer": "https://i", "audience": "a", "jwks": "x"}}}',
      '"gateway.jwt.jwks" is not a setting here (known: issuer, audience, jwksUri, clockToleranceSeconds, algorithms, resource)',
      'jwt.jwks',
    ],
    [
      '{"gateway": {"policy": {"rules": [{"allow": {"tools": {"fs": ["a"]}}}, {"alow": {}}]}}}',
      '"gateway.policy.rules[1].alow" is not a setting here (known: when, allow, deny)',
      'policy.rules[1].alow',
    ],
    [
      '{"gateway": {"policy": {"rules": [{"allow": {"tools": ["fs__*"]}}]}}}',
      '"gateway.policy.rules[0].allow.tools" must map server names (globs) to arrays of names (globs)',
      'policy.rules[0].allow.tools',
    ],
    [
      '{"gateway": {"policy": {"rules": [{"when": {"auth": "token"}}]}}}',
      '"gateway.policy.rules[0].when.auth" must be one of static, jwt, oauth, stdio, or an array of them',
      'policy.rules[0].when.auth',
    ],
    [
      '{"gateway": {"rateLimits": {"perCaller": {"calls": 0, "perSeconds": 1}}}}',
      '"gateway.rateLimits.perCaller.calls" must be a whole number ≥ 1',
      'rateLimits.perCaller.calls',
    ],
    ['{"gateway": {"audit": "stdout"}}', '"gateway.audit" must be "stderr" or { "file": "<path>" }', 'audit'],
    [
      '{"gateway": {"redisChannelPrefix": ""}}',
      '"gateway.redisChannelPrefix" must be a non-empty string',
      'redisChannelPrefix',
    ],
    [
      '{"mcpServers": {"a": {"command": "x", "prefix": 3}}}',
      'server "a": "prefix" must be a non-empty string or false',
      'prefix',
    ],
    [
      '{"mcpServers": {"a": {"command": "x", "prefix": "x"}, "b": {"command": "y", "prefix": "x"}}}',
      'servers "a" and "b" would both prefix their tools with "x"; give one a "prefix" of its own',
      'prefix',
    ],
    [
      '{"mcpServers": {"fs": {"command": "x"}, "b": {"command": "y", "prefix": "fs"}}}',
      'servers "fs" and "b" would both prefix their tools with "fs"; give one a "prefix" of its own',
      'prefix',
    ],
  ])('refuses %s', (text, problem, field) => {
    const at = file('bad.json', text);
    const error = (() => {
      try {
        readGatewaySettings(at);
      } catch (thrown) {
        return thrown;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(MCPConfigError);
    expect(error).toMatchObject({ message: `config ${at}: ${problem}`, file: at, field });
  });
});
