import { MCPClient } from 'agentwire';

const client = MCPClient.fromUrl(process.env.MCP_SERVER_URL!, {
  auth: {
    grant: 'enterprise',
    idToken: process.env.IDP_ID_TOKEN!, // the user's ID token, from the host's sign-in with the IdP
    idp: { issuer: process.env.IDP_ISSUER!, clientId: 'agentwire-at-idp' },
    clientId: 'agentwire-at-mcp', // registered with the MCP server's authorization server
    clientSecret: process.env.MCP_CLIENT_SECRET!,
  },
});
await client.connect(); // ID token → ID-JAG at the IdP → access token at the MCP server's authorization server
console.log((await client.callTool('whoami', {})).content);
await client.disconnect();
