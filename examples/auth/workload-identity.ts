import { MCPCallError, MCPClient, MCPOAuthGrantError } from 'agentwire';

// The platform writes the workload's JWT to a file and rotates it: it is read again for every new token.
const client = MCPClient.fromUrl(process.env.MCP_SERVER_URL!, {
  auth: { grant: 'jwt_bearer', assertionFile: process.env.WORKLOAD_TOKEN_FILE! },
});
try {
  await client.connect();
  console.log((await client.callTool('whoami', {})).content);
} catch (error) {
  // A refused grant is not retried: the host decides what to do about it.
  if (error instanceof MCPCallError && error.cause instanceof MCPOAuthGrantError) {
    console.error(`${error.cause.grant} refused: ${error.cause.oauthError} (HTTP ${error.cause.status})`);
  } else throw error;
} finally {
  await client.disconnect();
}
