/**
 * The package's public surface, read by the TypeScript compiler from src/index.ts: every name a user can
 * import from `agentwire`. Adding or removing a name changes this list on purpose. The layer index files
 * list their names too (no `export *`), and each of their names reaches the package index.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const INDEX_FILES = [
  'src/index.ts',
  'src/mcp/index.ts',
  'src/agent/index.ts',
  'src/providers/index.ts',
  'src/tools/index.ts',
];

/** The `agentwire/gateway` subpath (package.json `exports`): apart, so the package index never loads the SDK server. */
const GATEWAY_INDEX = 'src/gateway/index.ts';

/** The `agentwire/restate` subpath: apart, so the package index never loads Restate's SDK (an optional peer). */
const RESTATE_INDEX = 'src/restate/index.ts';

/**
 * The framework adapters' subpaths (`agentwire/ai-sdk`, …), each the only door to its module, so that the
 * package index never loads a framework: subpath, source file, and its names.
 */
const ADAPTERS: [string, string, string[]][] = [
  [
    './ai-sdk',
    'src/adapters/ai-sdk.ts',
    ['AdapterOptions', 'AdapterSource', 'AISDKTools', 'createAISDKTools'],
  ],
  [
    './openai-agents',
    'src/adapters/openai-agents.ts',
    [
      'AdapterOptions',
      'AdapterSource',
      'AgentwireMCPServer',
      'OpenAIAgentsServerOptions',
      'agentwireMCPServer',
    ],
  ],
  [
    './langchain',
    'src/adapters/langchain.ts',
    ['AdapterOptions', 'AdapterSource', 'LangChainTools', 'createLangChainTools'],
  ],
];

const program = ts.createProgram(
  [...INDEX_FILES, GATEWAY_INDEX, RESTATE_INDEX, ...ADAPTERS.map(([, file]) => file)].map((file) =>
    path.join(ROOT, file),
  ),
  { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true },
);
const checker = program.getTypeChecker();

/** The names `file` exports, sorted. */
function exportsOf(file: string): string[] {
  const source = program.getSourceFile(path.join(ROOT, file));
  const symbol = source && checker.getSymbolAtLocation(source);
  if (!symbol) throw new Error(`${file} is not a module`);
  return checker
    .getExportsOfModule(symbol)
    .map((exported) => exported.name)
    .sort();
}

describe('public API', () => {
  it('is exactly these names', () => {
    expect(exportsOf('src/index.ts')).toEqual(
      [
        // core
        'JsonObject',
        'JsonSchema',
        'JsonValue',
        'Tool',
        'ToolContext',
        'RunContext',
        'ToolProgress',
        'ToolOutput',
        'ToolOutputPart',
        'ToolOutputText',
        'ToolOutputMedia',
        'isToolOutput',
        'VERSION',
        // mcp: clients, options, events
        'MCPClient',
        'MCPClientEvent',
        'MCPClientEvents',
        'MCPClientLogEntry',
        'MCPClientOptions',
        'MCPClientState',
        'MCPWireMessage',
        // mcp: hooks and the request context (tenants)
        'MCPClientHooks',
        'MCPBeforeRequestHook',
        'MCPAfterResultHook',
        'MCPBeforeRetryHook',
        'MCPWireHook',
        'MCPTaskCreatedHook',
        'MCPFormatResultHook',
        'MCPCallOptionsHook',
        'MCPOutgoingRequest',
        'MCPHttpOutgoingRequest',
        'MCPStdioOutgoingRequest',
        'MCPRetry',
        'MCPRequestContext',
        'MCPHeadersFunction',
        'MCPTokenSupplier',
        'MCPTokens',
        'MCPConnectOptions',
        'MCPCompleteParams',
        'MCPCompletion',
        'MCPReconnectOptions',
        'MCPRequestOptions',
        'MCPProtocolVersion',
        'MCPProtocolVersionOption',
        'MCPToolCallOptions',
        'MCPCallOptionsContext',
        'MCPCallOptionsSource',
        'MCPFormatResultContext',
        'MCPServerRequestHandlers',
        'MCPUrlElicitation',
        'MCPUrlElicitationAction',
        'ServerRequestContext',
        'AuthorizationCallback',
        // mcp: OAuth logins kept in a file
        'OAuthFileStore',
        'OAuthStoreError',
        'OAuthStoredClient',
        'OAuthStoredLogin',
        'OAuthStoreProblem',
        'StoredOAuthClientProvider',
        'StoredOAuthClientProviderOptions',
        'MCPStdioServer',
        'MCPHttpServer',
        'MCPDpopOption',
        // mcp: authorization without a browser (the `auth` option)
        'MCPHttpAuth',
        'MCPClientCredentialsAuth',
        'MCPJwtBearerAuth',
        'MCPEnterpriseAuth',
        'MCPEnterpriseIdp',
        'MCPGrantContext',
        'MCPSecretSource',
        'MCPTokenEndpointAuthMethod',
        'MCPOAuthGrantError',
        'MCPOAuthGrantErrorDetails',
        'MCPOAuthGrantType',
        'MCPAuthConfigError',
        'MCPAuthConfigErrorDetails',
        'MCPAuthConfigProblem',
        'MCPTool',
        'IDEMPOTENCY_KEY_META_KEY',
        'MCPServers',
        'MCPPrefixedTool',
        'MCPServerConnectResult',
        'MCPServerStatus',
        'MCPServersEvents',
        'MCPServersToolOptions',
        // mcp: servers connected when needed
        'MCPLazyServerOptions',
        'MCPLazyTool',
        'MCPServersConfigOptions',
        'MCPToolListCache',
        'MCPToolListFileCache',
        'toolListCacheKey',
        // mcp: configuration files
        'createClient',
        'MCPCreateClientOptions',
        'loadServerConfig',
        'parseServerConfig',
        'getServerEntry',
        'MCPLoadConfigOptions',
        'MCPServerConfig',
        'MCPServerEntry',
        'MCPStdioServerEntry',
        'MCPHttpServerEntry',
        'MCPInvalidServerEntry',
        'MCPToolFilter',
        'toolFilter',
        // mcp: errors
        'MCPError',
        'MCPCallError',
        'MCPCallErrorDetails',
        'MCPCallErrorChanges',
        'MCPCallErrorKind',
        'MCPConfigError',
        'MCPConfigErrorDetails',
        'MCPConfigWarning',
        'MCPServerUrlError',
        'MCPServerUrlProblem',
        'MCPToolError',
        // mcp: rendering for a model
        'renderCallToolResult',
        'renderCallToolResultText',
        'renderContentBlock',
        // mcp: wire types (MCP spec 2025-11-25)
        'Annotations',
        'AudioContent',
        'BlobResourceContents',
        'CallToolResult',
        'ContentBlock',
        'CreateMessageParams',
        'CreateMessageResult',
        'ElicitParams',
        'ElicitResult',
        'EmbeddedResource',
        'GetPromptResult',
        'ImageContent',
        'Implementation',
        'LoggingLevel',
        'MCPServerCapabilities',
        'MCPToolDefinition',
        'Progress',
        'Prompt',
        'ReadResourceResult',
        'Resource',
        'ResourceLink',
        'ResourceTemplate',
        'Root',
        'SamplingMessage',
        'ServerLogMessage',
        'TextContent',
        'TextResourceContents',
        'ToolAnnotations',
        'UnknownContent',
        // mcp: tasks (MCP spec 2025-11-25 tasks, 2026-07-28 tasks extension)
        'MCPTask',
        'MCPTaskCall',
        'MCPTaskPassThrough',
        'MCPTaskStatus',
        'MCPTaskSupport',
        // agent
        'Agent',
        'AgentOptions',
        'RunOptions',
        'AgentEvent',
        'AgentEventType',
        'AgentResult',
        'ToolCallInfo',
        'AgentError',
        'AgentAbortError',
        'AgentErrorKind',
        'ApproveHook',
        'ApprovalDecision',
        'ToolCallRequest',
        'McpServerHandle',
        'McpServerOptions',
        'ToolNamePrefixPolicy',
        'ToolWarning',
        'renderEvent',
        'RenderOptions',
        'samplingHandler',
        'DEFAULT_MAX_TOOL_RESULT_BYTES',
        'DEFAULT_MAX_SERVER_INSTRUCTIONS_BYTES',
        'DEFAULT_TOOL_SEARCH_THRESHOLD',
        'PROVIDER_MAX_TOOLS',
        'SamplingHandler',
        'AgentTelemetryOptions',
        // providers
        'Model',
        'ModelRequest',
        'ModelEvent',
        'ModelToolSpec',
        'Message',
        'UserMessage',
        'AssistantMessage',
        'ToolResultsMessage',
        'TextPart',
        'ToolCallPart',
        'ToolResult',
        'StopReason',
        'Usage',
        'anthropic',
        'AnthropicModelOptions',
        'ANTHROPIC_IMAGE_LIMITS',
        'openai',
        'OpenAIModelOptions',
        'OPENAI_IMAGE_LIMITS',
        'ImageOptions',
        'ImageLimits',
        'modelFromEnv',
        'DEFAULT_ANTHROPIC_MODEL',
        'DEFAULT_OPENAI_MODEL',
        'DEFAULT_MODEL_IDLE_TIMEOUT_MS',
        'DEFAULT_MODEL_REQUEST_TIMEOUT_MS',
        'ModelError',
        'ModelErrorKind',
        'SchemaConversionError',
        'AnthropicToolSearch',
        'ProviderContent',
        'ResponseInfo',
        // built-in tools
        'defaultTools',
        'DefaultToolsOptions',
        'BuiltinToolError',
        'BuiltinToolErrorKind',
        // mcp: skills (MCP Skills extension, SEP-2640)
        'MCPLoadedSkill',
        'MCPSkill',
        'MCPSkillFile',
        'MCPSkillFileEntry',
        'MCPSkillNotFoundError',
        'MCPSkillVerificationError',
        'MCPSkillVerificationReason',
      ].sort(),
    );
  });

  it.each(INDEX_FILES.slice(1))('%s reaches the package index whole', (file) => {
    const surface = new Set(exportsOf('src/index.ts'));
    expect(exportsOf(file).filter((name) => !surface.has(name))).toEqual([]);
  });

  it.each(INDEX_FILES)('%s exports by name', (file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    expect(text.match(/^export (type )?\*.*$/gm)).toBeNull();
  });

  it('agentwire/gateway is exactly these names, none of them in the package index', () => {
    expect(exportsOf(GATEWAY_INDEX)).toEqual(
      [
        'MCPGateway',
        'MCPGatewayConfigOptions',
        'MCPGatewayOptions',
        'MCPGatewayNaming',
        'MCPGatewayFileSettings',
        'readGatewaySettings',
        'DEFAULT_INPUT_WAIT_MS',
        'DEFAULT_MAX_REQUEST_BODY_BYTES',
        'DEFAULT_MAX_SUBSCRIPTIONS',
        'MCPGatewayAccessCheck',
        'MCPGatewayAccessOptions',
        'createAccessCheck',
        'MCPGatewayTarget',
        'MCPGatewayHttpHost',
        'MCPGatewayListenOptions',
        'MCPGatewayStdioHost',
        'MCPGatewayStdioOptions',
        'MCPGatewayStatusDocument',
        'MCPGatewayUpstreamStatus',
        'STATUS_RESOURCE',
        'createRedisEventBus',
        'DEFAULT_REDIS_CHANNEL_PREFIX',
        'RedisEventBus',
        'RedisEventBusError',
        'RedisEventBusOperation',
        'RedisEventBusOptions',
        // who is calling: JWTs, the access policy, rate limits, the audit
        'MCPGatewayJwtOptions',
        'MCPGatewayCaller',
        'MCPGatewayPolicy',
        'MCPGatewayRule',
        'MCPGatewayRuleMatch',
        'MCPGatewayGrants',
        'MCPGatewayRate',
        'MCPGatewayRateLimits',
        'MCPGatewayAuditEntry',
        'MCPGatewayAuditLog',
        'openAuditLog',
        // upstreams that heal
        'MCPGatewayReconnectOptions',
        'MCPGatewayUpstreamState',
        'DEFAULT_SESSION_MAX_AGE_MS',
        'GatewayCluster',
        'ClusterMessage',
        'localCluster',
        'createRedisCluster',
        'RedisClusterOptions',
      ].sort(),
    );
    const surface = new Set(exportsOf('src/index.ts'));
    expect(exportsOf(GATEWAY_INDEX).filter((name) => surface.has(name))).toEqual([]);
    const text = readFileSync(path.join(ROOT, GATEWAY_INDEX), 'utf8');
    expect(text.match(/^export (type )?\*.*$/gm)).toBeNull();
  });

  it('agentwire/restate is exactly these names, none of them in the package index', () => {
    expect(exportsOf(RESTATE_INDEX)).toEqual(
      [
        'durableAgent',
        'DurableAgentOptions',
        'DurableRunRequest',
        'DurableRunResult',
        'ModelRetry',
        'DurableAgentClient',
        'DurableAgentClientOptions',
        'DurableAgentRequestError',
        'StartedRun',
        'ApprovalRequestedEvent',
        'EventPage',
        'LoggedEvent',
        'PendingApproval',
        'SequencedEvent',
      ].sort(),
    );
    const surface = new Set(exportsOf('src/index.ts'));
    expect(exportsOf(RESTATE_INDEX).filter((name) => surface.has(name))).toEqual([]);
    const text = readFileSync(path.join(ROOT, RESTATE_INDEX), 'utf8');
    expect(text.match(/^export (type )?\*.*$/gm)).toBeNull();
  });

  it('maps agentwire/restate to the built restate index, Restate SDK an optional peer pinned in devDependencies', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
      devDependencies: Record<string, string>;
    };
    expect(manifest.exports['./restate']).toEqual({
      types: './dist/restate/index.d.ts',
      import: './dist/restate/index.js',
      default: './dist/restate/index.js',
    });
    expect(manifest.peerDependenciesMeta['@restatedev/restate-sdk']).toEqual({ optional: true });
    expect(manifest.peerDependencies['@restatedev/restate-sdk']).toBe(
      `^${manifest.devDependencies['@restatedev/restate-sdk']}`,
    );
    expect(manifest.devDependencies['@restatedev/restate-server']).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('maps agentwire/gateway to the built gateway index', () => {
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    expect(manifest.exports['./gateway']).toEqual({
      types: './dist/gateway/index.d.ts',
      import: './dist/gateway/index.js',
      default: './dist/gateway/index.js',
    });
  });

  it.each(ADAPTERS)('%s is exactly its names, mapped to its built module', (subpath, file, names) => {
    expect(exportsOf(file)).toEqual([...names].sort());
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    const built = file.replace(/^src\//, './dist/').replace(/\.ts$/, '');
    expect(manifest.exports[subpath]).toEqual({
      types: `${built}.d.ts`,
      import: `${built}.js`,
      default: `${built}.js`,
    });
  });
});
