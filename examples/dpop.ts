import { generateDpopKeyPair, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { MCPCallError, MCPClient } from 'agentwire';

/**
 * Connects to `url` with DPoP-bound OAuth tokens (RFC 9449). `redirected()` resolves with the redirect URL
 * the user came back to after `authProvider.redirectToAuthorization(url)` sent them to the browser.
 */
export async function connectWithDpop(
  url: string,
  authProvider: OAuthClientProvider,
  redirected: () => Promise<URL>,
): Promise<MCPClient> {
  // Keep the key pair as long as the tokens bound to it: refreshing them needs the same key.
  const keyPair = await generateDpopKeyPair();
  const client = MCPClient.fromUrl(url, { authProvider, dpop: { keyPair } });
  try {
    await client.connect();
  } catch (error) {
    if (!(error instanceof MCPCallError) || error.status !== 401) throw error;
    await client.finishAuth(await redirected());
    await client.connect();
  }
  return client;
}
