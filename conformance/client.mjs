#!/usr/bin/env node
/**
 * agentwire's client for the official MCP conformance suite (`@modelcontextprotocol/conformance`).
 *
 * The suite runs `node conformance/client.mjs <serverUrl>` with `MCP_CONFORMANCE_SCENARIO` (and, for some
 * auth scenarios, `MCP_CONFORMANCE_CONTEXT`) in the environment, and judges what reaches its server. This
 * file only does what a host of agentwire would do for each scenario, through agentwire's public API
 * (built into ../dist, or `AGENTWIRE_DIST`): it runs on the host's Node (>= 20), the suite on Node 22.
 *
 * Suite 0.2 also sets `MCP_CONFORMANCE_PROTOCOL_VERSION` (the revision its server speaks); this client
 * ignores it on purpose, since a host does not pin a revision: agentwire is to negotiate it on its own.
 *
 * Exit code 0 when the scenario's steps completed, 1 (with the error on stderr) otherwise.
 */
import { pathToFileURL } from 'node:url';
import { ConformanceOAuthProvider } from './oauth-provider.mjs';

const distEntry = process.env.AGENTWIRE_DIST ?? new URL('../dist/index.js', import.meta.url).pathname;
const { MCPClient, MCPCallError, MCPSkillVerificationError } = await import(pathToFileURL(distEntry).href);

/** The URL-based client id offered to servers that support Client ID Metadata Documents (SEP-991). */
const CIMD_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** How many browser round trips one step may take: the first authorization, then one step-up. */
const MAX_AUTHORIZATIONS = 2;

/** @type {Record<string, (url: string) => Promise<void>>} */
const scenarios = {
  initialize: async (url) => {
    await session(MCPClient.fromUrl(url, { name: 'conformance' }), async () => {});
  },

  tools_call: async (url) => {
    await session(MCPClient.fromUrl(url, { name: 'conformance' }), async (client) => {
      const result = await client.callTool('add_numbers', { a: 5, b: 3 });
      expectNoError(result, 'add_numbers');
    });
  },

  'elicitation-sep1034-client-defaults': async (url) => {
    // The handler accepts with no fields: agentwire fills every field from the schema's defaults.
    const client = MCPClient.fromUrl(url, {
      name: 'conformance',
      onElicitation: async () => ({ action: 'accept', content: {} }),
    });
    await session(client, async () => {
      const result = await client.callTool('test_client_elicitation_defaults', {});
      expectNoError(result, 'test_client_elicitation_defaults');
    });
  },

  'sse-retry': async (url) => {
    // The server ends the tool's response stream after an event id and `retry:`; agentwire must wait that
    // long, resume with GET + Last-Event-ID, and receive the result there.
    await session(MCPClient.fromUrl(url, { name: 'conformance' }), async (client) => {
      const result = await client.callTool('test_reconnection', {});
      expectNoError(result, 'test_reconnection');
    });
  },

  'auth/pre-registration': async (url) => {
    const context = readContext();
    const provider = new ConformanceOAuthProvider({
      clientName: 'agentwire-conformance',
      clientInformation: { client_id: context.client_id, client_secret: context.client_secret },
    });
    await authorizedSession(url, provider);
  },

  // SEP-1046 client credentials, through agentwire's `auth` option (client_secret_basic here).
  'auth/client-credentials-basic': async (url) => {
    const context = readContext();
    const auth = {
      grant: 'client_credentials',
      clientId: context.client_id,
      clientSecret: context.client_secret,
    };
    await session(MCPClient.fromUrl(url, { name: 'conformance', auth }), listOnly);
  },

  // SEP-1046 with private_key_jwt (RFC 7523 §2.2): the algorithm follows from the key when not given.
  'auth/client-credentials-jwt': async (url) => {
    const context = readContext();
    const auth = {
      grant: 'client_credentials',
      clientId: context.client_id,
      privateKey: context.private_key_pem,
      ...(context.signing_algorithm !== undefined && { algorithm: context.signing_algorithm }),
    };
    await session(MCPClient.fromUrl(url, { name: 'conformance', auth }), listOnly);
  },

  // SEP-1933 workload identity federation: the workload's JWT as an RFC 7523 JWT-bearer grant.
  'auth/wif-jwt-bearer': async (url) => {
    const context = readContext();
    const auth = { grant: 'jwt_bearer', assertion: context.valid_jwt, clientId: context.client_id };
    await session(MCPClient.fromUrl(url, { name: 'conformance', auth }), listOnly);
  },

  // MCP spec 2026-07-28, Basic > Overview > _meta: every request carries protocol version, client info and
  // capabilities; the handlers make agentwire declare sampling, elicitation and roots so all three are seen.
  'request-metadata': async (url) => {
    const client = MCPClient.fromUrl(url, {
      name: 'conformance',
      onSampling: async () => ({ role: 'assistant', content: { type: 'text', text: 'ok' }, model: 'none' }),
      onElicitation: async () => ({ action: 'decline' }),
      roots: [{ uri: 'file:///conformance', name: 'conformance' }],
    });
    await session(client, async () => {});
  },

  // Multi round-trip requests (SEP-2322): answer the server's elicitation; between the rounds of the first
  // tool, call an unrelated tool, which must carry neither `inputResponses` nor `requestState`.
  'sep-2322-client-request-state': async (url) => {
    let between;
    const client = MCPClient.fromUrl(url, {
      name: 'conformance',
      onElicitation: async () => {
        between ??= client.callTool('test_mrtr_unrelated', {});
        await between;
        return { action: 'accept', content: { confirmed: true } };
      },
    });
    await session(client, async () => {
      for (const name of ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_no_result_type']) {
        expectNoError(await client.callTool(name, {}), name);
      }
      if (between === undefined) throw new Error('the server asked for no input between rounds');
      expectNoError(await between, 'test_mrtr_unrelated');
    });
  },

  // SEP-2243 standard headers (Mcp-Method, Mcp-Name): one request of every method the scenario inspects.
  'http-standard-headers': async (url) => {
    await session(MCPClient.fromUrl(url, { name: 'conformance' }), async (client) => {
      for (const tool of client.getTools()) expectNoError(await client.callTool(tool.name, {}), tool.name);
      for (const resource of await client.listResources()) await client.readResource(resource.uri);
      for (const prompt of await client.listPrompts()) await client.getPrompt(prompt.name, {});
    });
  },

  // SEP-2243 custom headers: the calls come from the scenario's context, arguments exactly as given.
  'http-custom-headers': async (url) => {
    const { toolCalls } = readContext();
    await session(MCPClient.fromUrl(url, { name: 'conformance' }), async (client) => {
      for (const call of toolCalls)
        expectNoError(await client.callTool(call.name, call.arguments), call.name);
    });
  },

  // SEP-2243: a tool whose `x-mcp-header` is invalid must be left out of the list; call whatever is listed.
  'http-invalid-tool-headers': async (url) => {
    await session(MCPClient.fromUrl(url, { name: 'conformance' }), async (client) => {
      if (!client.getTools().some((tool) => tool.name === 'valid_tool'))
        throw new Error('valid_tool is not listed');
      for (const tool of client.getTools()) {
        expectNoError(await client.callTool(tool.name, sampleArguments(tool.inputSchema)), tool.name);
      }
    });
  },

  // SEP-2106: listing a tool whose schema `$ref`s a network URI must not fetch it.
  'json-schema-ref-no-deref': async (url) => {
    await session(MCPClient.fromUrl(url, { name: 'conformance' }), async (client) => {
      if (!client.getTools().some((tool) => tool.name === 'lookup_user'))
        throw new Error('lookup_user is not listed');
    });
  },

  // SEP-1613 / SEP-2106: the focal tool's inputSchema, as agentwire exposes it, echoed back verbatim.
  'json-schema-2020-12-preservation': async (url) => {
    await session(MCPClient.fromUrl(url, { name: 'conformance' }), async (client) => {
      const focal = client.getTools().find((tool) => tool.name === 'json_schema_2020_12_tool');
      if (focal === undefined) throw new Error('json_schema_2020_12_tool is not listed');
      expectNoError(
        await client.callTool('json_schema_echo', { schema: focal.inputSchema }),
        'json_schema_echo',
      );
    });
  },

  // SEP-990 enterprise-managed authorization: agentwire exchanges the IdP's ID token for an ID-JAG (RFC 8693),
  // then the ID-JAG for an access token at the MCP server's authorization server (RFC 7523).
  'auth/cross-app-access-complete-flow': async (url) => {
    const context = readContext();
    const auth = {
      grant: 'enterprise',
      idToken: context.idp_id_token,
      idp: { issuer: context.idp_issuer, clientId: context.idp_client_id },
      clientId: context.client_id,
      clientSecret: context.client_secret,
    };
    const client = MCPClient.fromUrl(url, { name: 'conformance', auth });
    await session(client, async () => {
      expectNoError(await client.callTool('test-tool', {}), 'test-tool');
    });
  },
};

// Skills (SEP-2640): a host lists a server's skills and reads no file of one until it loads it.
scenarios['sep-2640-client-no-prefetch'] = async (url) => {
  await session(MCPClient.fromUrl(url, { name: 'conformance' }), async (client) => {
    const skills = await client.listSkills();
    if (!skills.some((skill) => skill.name === 'pdf-processing'))
      throw new Error('pdf-processing is not listed');
  });
};

// SEP-2640 verification: the server serves a SKILL.md that fails its entry's digest, size or frontmatter;
// loading it must fail on SKILL.md, before any other file of the skill is read.
for (const check of ['digest', 'size', 'frontmatter']) {
  scenarios[`sep-2640-client-verify-${check}`] = async (url) => {
    await session(MCPClient.fromUrl(url, { name: 'conformance' }), async (client) => {
      try {
        await client.loadSkill('pdf-processing');
      } catch (error) {
        if (error instanceof MCPSkillVerificationError && error.reason === check) return;
        throw error;
      }
      throw new Error(`the skill loaded although its SKILL.md fails the ${check} check`);
    });
  };
}

// DPoP-bound tokens (SEP-1932, RFC 9449): the default flow with the `dpop` option of `fromUrl`; the token
// request and every MCP request carry a fresh proof, `use_dpop_nonce` challenges are answered with the nonce.
for (const name of ['auth/dpop', 'auth/dpop-nonce']) {
  scenarios[name] = (url) =>
    authorizedSession(
      url,
      new ConformanceOAuthProvider({
        clientName: 'agentwire-conformance',
        clientMetadataUrl: CIMD_CLIENT_METADATA_URL,
      }),
      { dpop: true },
    );
}

// Renamed in suite 0.2 (SEP-990, Enterprise-Managed Authorization); the same flow and context.
scenarios['auth/enterprise-managed-authorization'] = scenarios['auth/cross-app-access-complete-flow'];

/** Every other `auth/*` scenario: discovery, registration (DCR or CIMD), authorization code with PKCE. */
async function defaultAuthScenario(url, scenario) {
  const provider = new ConformanceOAuthProvider({
    clientName: 'agentwire-conformance',
    clientMetadataUrl: CIMD_CLIENT_METADATA_URL,
  });
  // A 2025-03-26 server is its own authorization server, and its metadata names an `issuer` that predates
  // the RFC 8414 §3.3 check: the option a host sets for such a server.
  const legacy = scenario.startsWith('auth/2025-03-26-');
  await authorizedSession(url, provider, legacy ? { skipIssuerMetadataValidation: true } : {});
}

/** Connects through OAuth (authorize in "the browser", `finishAuth`, connect again), lists and calls a tool. */
async function authorizedSession(url, provider, options = {}) {
  const client = MCPClient.fromUrl(url, { name: 'conformance', authProvider: provider, ...options });
  try {
    await withAuthorization(client, provider, () => client.connect());
    const result = await withAuthorization(client, provider, () => client.callTool('test-tool', {}));
    expectNoError(result, 'test-tool');
  } finally {
    await client.disconnect();
  }
}

/**
 * Runs `step`; when it fails because the user must authorize (an `MCPCallError` of kind `http`, status 401,
 * whose cause is the SDK's `UnauthorizedError`), hands the redirect to `finishAuth` and runs it again.
 */
async function withAuthorization(client, provider, step) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await step();
    } catch (error) {
      const callback = provider.takeCallback();
      if (!needsAuthorization(error) || callback === undefined || attempt >= MAX_AUTHORIZATIONS) throw error;
      await client.finishAuth(callback);
    }
  }
}

function needsAuthorization(error) {
  return error instanceof MCPCallError && error.status === 401 && error.cause?.name === 'UnauthorizedError';
}

async function session(client, body) {
  try {
    await client.connect();
    await body(client);
  } finally {
    await client.disconnect();
  }
}

async function listOnly(client) {
  if (client.getTools().length === 0) throw new Error('the server listed no tools');
}

function expectNoError(result, toolName) {
  if (result.isError === true)
    throw new Error(`tool ${toolName} returned isError: ${JSON.stringify(result)}`);
}

/** Arguments that satisfy a flat object schema's required properties (a string, number, boolean …). */
function sampleArguments(schema) {
  const samples = {
    string: 'sample',
    integer: 1,
    number: 1,
    boolean: true,
    object: {},
    array: [],
    null: null,
  };
  const args = {};
  for (const name of schema?.required ?? [])
    args[name] = samples[schema.properties?.[name]?.type] ?? 'sample';
  return args;
}

function readContext() {
  const raw = process.env.MCP_CONFORMANCE_CONTEXT;
  if (raw === undefined) throw new Error('MCP_CONFORMANCE_CONTEXT is not set');
  return JSON.parse(raw);
}

async function main() {
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
  const url = process.argv[2];
  if (scenario === undefined || url === undefined) {
    console.error('usage: MCP_CONFORMANCE_SCENARIO=<scenario> node conformance/client.mjs <server-url>');
    return 2;
  }
  const run = scenarios[scenario] ?? (scenario.startsWith('auth/') ? defaultAuthScenario : undefined);
  if (run === undefined) {
    console.error(`conformance client: no handler for scenario "${scenario}"`);
    return 2;
  }
  await run(url, scenario);
  return 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(`conformance client: scenario "${process.env.MCP_CONFORMANCE_SCENARIO}" failed:`, error);
  process.exitCode = 1;
}
