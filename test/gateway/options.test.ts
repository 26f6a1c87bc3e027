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
      '"gateway.maxSubscription" is not a gateway setting (known: bearerTokenEnv, separator, maxSubscriptions, maxRequestBodyBytes, allowedHosts, redisUrl, redisChannelPrefix, sessionSecretEnv)',
      'maxSubscription',
    ],
    ['{"gateway": {"redisUrl": 6379}}', '"gateway.redisUrl" must be a non-empty string', 'redisUrl'],
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
