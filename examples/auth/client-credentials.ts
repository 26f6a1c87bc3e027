import { MCPClient } from 'agentwire';

const url = process.env.MCP_SERVER_URL!;
// A client secret: client_secret_basic (client_secret_post when the authorization server lists only that).
const withSecret = MCPClient.fromUrl(url, {
  auth: { grant: 'client_credentials', clientId: 'report-bot', clientSecret: process.env.MCP_CLIENT_SECRET! },
});
// A private key (PEM or JWK): private_key_jwt, the algorithm taken from the key (ES256 for a P-256 key).
const withKey = MCPClient.fromUrl(url, {
  auth: { grant: 'client_credentials', clientId: 'report-signer', privateKeyFile: process.env.MCP_KEY_FILE! },
});
for (const client of [withSecret, withKey]) {
  await client.connect(); // 401, discovery, one token request, then initialize with the token
  console.log((await client.callTool('whoami', {})).content);
  await client.disconnect();
}
