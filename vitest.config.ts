import { defineConfig } from 'vitest/config';

/**
 * The quick files that need a process of their own: what a fresh Node has as `fetch`'s global dispatcher
 * (another file of the same worker importing undici installs its `Agent` there).
 */
const QUICK_FRESH = ['test/mcp/transports/http/undici-dispatcher.test.ts'];

/**
 * The quick tests (`npm run test:quick`): the files that start no process: no MCP server, no built CLI, no
 * Redis, no terminal. test/quick-guard.ts makes each of them fail when it does; loopback sockets and worker
 * threads are allowed. They share a module graph per worker (`isolate: false`); {@link QUICK_FRESH} do not.
 */
const QUICK = [
  'test/agent/agent-attach.test.ts',
  'test/agent/agent-loop.test.ts',
  'test/agent/agent-robustness.test.ts',
  'test/agent/render.test.ts',
  'test/agent/result-budget.test.ts',
  'test/agent/tool-names.test.ts',
  'test/cli/run-output.test.ts',
  'test/cli/tool-list.test.ts',
  'test/core/backoff.test.ts',
  'test/core/sleep.test.ts',
  'test/gateway/options.test.ts',
  'test/mcp/adapter/content.test.ts',
  'test/mcp/client/reconnect-grant.test.ts',
  'test/mcp/client/response-cache.test.ts',
  'test/mcp/client/units.test.ts',
  'test/mcp/config/auth-fields.test.ts',
  'test/mcp/era2026/listen-http.test.ts',
  'test/mcp/era2026/negotiate-retry.test.ts',
  'test/mcp/era2026/reissue.test.ts',
  'test/mcp/era2026/tool-headers-http.test.ts',
  'test/mcp/protocol/errors.test.ts',
  'test/mcp/protocol/mcp-headers.test.ts',
  'test/mcp/protocol/redact-error.test.ts',
  'test/mcp/protocol/redact.test.ts',
  'test/mcp/protocol/secrets.test.ts',
  'test/mcp/servers/many-servers.test.ts',
  'test/mcp/session/listen.test.ts',
  'test/mcp/transports/http/failures.test.ts',
  'test/mcp/transports/http/framing.test.ts',
  'test/mcp/transports/http/get-stream.test.ts',
  'test/mcp/transports/http/json-body.test.ts',
  'test/mcp/transports/http/legacy-sse.test.ts',
  'test/mcp/transports/http/modern.test.ts',
  'test/mcp/transports/http/oauth-file-store.test.ts',
  'test/mcp/transports/http/oauth.test.ts',
  'test/mcp/transports/http/sdk-probe.test.ts',
  'test/mcp/transports/http/session.test.ts',
  'test/mcp/transports/http/sse-decoder.test.ts',
  'test/mcp/transports/http/undici.test.ts',
  'test/mcp/transports/json/large-line.test.ts',
  'test/providers/anthropic-tool-search.test.ts',
  'test/providers/anthropic.test.ts',
  'test/providers/env.test.ts',
  'test/providers/media.test.ts',
  'test/providers/openai.test.ts',
  'test/providers/schema.test.ts',
  'test/public-api.test.ts',
  'test/source-rules.test.ts',
  'test/tools/confined.test.ts',
  'test/tools/refusals.test.ts',
  'test/tools/search.test.ts',
  'test/tools/workspace.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most files spend their time waiting on the processes they start (MCP servers, the built CLI, Redis),
    // not on the CPU: three files at once on 2 cores took a sample of six such files from 143 s to 87 s.
    // Vitest's default for `run` is one worker fewer than the cores: a single file at a time on 2 cores.
    maxWorkers: 3,
    globalSetup: ['test/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'quick',
          include: QUICK,
          setupFiles: ['test/quick-guard.ts'],
          // One module graph per worker, not per file: importing the library (the SDK, undici, zod) again for
          // each file cost more than the tests themselves. A sample of 12 of these files: 40 → 28 s of CPU.
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'quick-fresh', include: QUICK_FRESH, setupFiles: ['test/quick-guard.ts'] },
      },
      {
        extends: true,
        test: { name: 'processes', include: ['test/**/*.test.ts'], exclude: [...QUICK, ...QUICK_FRESH] },
      },
    ],
  },
});
