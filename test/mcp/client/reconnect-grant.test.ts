/**
 * Reconnection after a lost connection whose token request is refused (an RFC 6749 §5.2 `invalid_client`
 * answer, an `MCPOAuthGrantError` in the failure's cause chain): the refusal is final, so the client stops
 * at once, state `failed`, after one token request, rather than asking again on every attempt.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MCPOAuthGrantError } from '../../../src/mcp/auth/grant-error.js';
import { MCPClient } from '../../../src/mcp/client/client.js';
import { MCPCallError } from '../../../src/mcp/protocol/errors.js';
import { OAuthFixture } from '../../fixtures/oauth-server.js';
import { waitUntil } from '../../helpers.js';

let fixture: OAuthFixture | undefined;
let client: MCPClient | undefined;
afterEach(async () => {
  await client?.disconnect();
  await fixture?.close();
  client = fixture = undefined;
});

describe('reconnect after a refused grant', () => {
  it('stops after the refused token request: state failed, one token request, no retry', async () => {
    let refuse = false;
    fixture = await OAuthFixture.start({
      sessions: true,
      grant: (form) => {
        if (form.get('grant_type') !== 'client_credentials') return undefined;
        if (refuse) return [401, { error: 'invalid_client' }];
        const { access } = fixture!.issueTokens('mcp:read');
        return [200, { access_token: access, token_type: 'Bearer', expires_in: 3600 }];
      },
    });
    client = MCPClient.fromUrl(fixture.url, {
      name: 'oauth',
      auth: { grant: 'client_credentials', clientId: 'bot', clientSecret: 'bot-secret-SECRET' },
      reconnect: { enabled: true, maxRetries: 3, initialDelayMs: 10, maxDelayMs: 20 },
    });
    await client.connect();
    expect(fixture.tokenRequests).toHaveLength(1);
    const attempts: number[] = [];
    client.on('reconnecting', ({ attempt }) => attempts.push(attempt));
    const errors: unknown[] = [];
    client.on('error', (error) => errors.push(error));
    // The server restarted: it forgot the session and the token; the credential is refused from now on.
    refuse = true;
    fixture.dropSessions();
    fixture.accessTokens.clear();
    const failed = await client.callTool('whoami', {}).catch((thrown: unknown) => thrown);
    await waitUntil(() => client?.getState() === 'failed', 5000, 'failed');
    expect(failed).toBeInstanceOf(MCPCallError);
    expect(attempts).toEqual([1]);
    expect(fixture.tokenRequests).toHaveLength(2);
    expect(errors).toHaveLength(1);
    const error = errors[0] as MCPCallError;
    expect([error.kind, error.status]).toEqual(['http', 401]);
    expect(error.cause).toBeInstanceOf(MCPOAuthGrantError);
    expect((error.cause as MCPOAuthGrantError).oauthError).toBe('invalid_client');
    // Nothing more comes: no later attempt, no further token request.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect([attempts, fixture.tokenRequests.length]).toEqual([[1], 2]);
  });
});
