/**
 * The package as a user gets it. This checkout's files are copied the way a fresh clone has them (no
 * dist/), `npm pack` builds and packs them (the `prepack` script), and the tarball is installed into an
 * empty project from the npm cache (the registry only for what the cache lacks). Then, in that project:
 * the `agentwire` command, `import` and `require` of the package, its types under a user's compiler, and
 * proof that the CLI's MCP commands never ask for a model SDK (which are optional peer dependencies, so
 * the project has none installed).
 */
import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { quote } from 'shell-quote';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, ROOT } from './helpers.js';

const SETUP_TIMEOUT_MS = 180_000;
const RECORD_IMPORTS = path.join(ROOT, 'test', 'fixtures', 'record-imports.mjs');
/** A model SDK, or a module inside one. */
const MODEL_SDK = /^(@anthropic-ai\/sdk|openai)(\/|$)/;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment for every child: no model configuration of the host, and none of the outer npm run's
 * package and lifecycle variables (the inner npm commands are not part of this package's scripts).
 */
function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(ANTHROPIC_|OPENAI_|AGENTWIRE_|npm_package_|npm_lifecycle_)/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

function run(command: string, args: string[], cwd: string, extra: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: childEnv(extra), maxBuffer: 64 * 1024 * 1024, timeout: SETUP_TIMEOUT_MS },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** Fails with what the command printed when it did not succeed. */
async function runOk(command: string, args: string[], cwd: string): Promise<string> {
  const result = await run(command, args, cwd);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.code}:\n${result.stderr}${result.stdout}`);
  }
  return result.stdout;
}

let temp: string;
let app: string;
let packed: string[];

beforeAll(async () => {
  temp = mkdtempSync(path.join(tmpdir(), 'agentwire-package-'));
  // The checkout's files, committed or not, minus what git ignores (dist/, node_modules/): a fresh clone
  // with this work tree's changes. The dependencies come from this checkout, as `npm install` would.
  const clone = path.join(temp, 'clone');
  const listed = await runOk('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], ROOT);
  for (const file of listed.split('\0')) {
    if (file === '' || !existsSync(path.join(ROOT, file))) continue;
    mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(clone, file));
  }
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'));

  const report = JSON.parse(await runOk('npm', ['pack', '--json', '--pack-destination', temp], clone)) as {
    filename: string;
    files: { path: string }[];
  }[];
  const tarball = path.join(temp, report[0]!.filename);
  packed = report[0]!.files.map((file) => file.path).sort();

  app = path.join(temp, 'app');
  mkdirSync(app);
  writeFileSync(
    path.join(app, 'package.json'),
    JSON.stringify({ name: 'app', version: '1.0.0', private: true }),
  );
  await runOk('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], app);
}, SETUP_TIMEOUT_MS);

afterAll(() => {
  if (temp !== undefined) rmSync(temp, { recursive: true, force: true });
});

describe('the packed package', () => {
  it('holds the build, the README, the LICENSE and package.json only: no demo, no source maps', () => {
    const outside = packed.filter(
      (file) =>
        !['LICENSE', 'README.md', 'package.json'].includes(file) && !/^dist\/.*\.(js|d\.ts)$/.test(file),
    );
    expect(outside).toEqual([]);
    expect(packed.filter((file) => file.startsWith('dist/cli/demo'))).toEqual([]);
    expect(packed).toEqual(
      expect.arrayContaining(['LICENSE', 'dist/index.js', 'dist/index.d.ts', 'dist/cli/main.js']),
    );
  });

  it('installs without the optional peers: the model SDKs and @opentelemetry/api', () => {
    expect(existsSync(path.join(app, 'node_modules', 'agentwire', 'package.json'))).toBe(true);
    expect(existsSync(path.join(app, 'node_modules', '@anthropic-ai', 'sdk'))).toBe(false);
    expect(existsSync(path.join(app, 'node_modules', 'openai'))).toBe(false);
    expect(existsSync(path.join(app, 'node_modules', '@opentelemetry', 'api'))).toBe(false);
    // The image library for scaling images of tool results is an optional peer dependency too.
    expect(existsSync(path.join(app, 'node_modules', 'sharp'))).toBe(false);
  });

  it('runs as `npx agentwire --help`', async () => {
    const result = await run('npx', ['--no', '--', 'agentwire', '--help'], app);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(result.stdout).toMatch(/^Usage: agentwire \[options\] \[command\]\n/);
  });

  it('imports as an ES module', async () => {
    const script =
      "const m = await import('agentwire'); console.log(typeof m.MCPClient, typeof m.Agent, m.VERSION);";
    const result = await run(process.execPath, ['--input-type=module', '-e', script], app);
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(result).toEqual({ code: 0, stdout: `function function ${version}\n`, stderr: '' });
  });

  it('imports agentwire/gateway, the gateway and its Redis event bus, as a subpath of its own', async () => {
    const script =
      "const g = await import('agentwire/gateway'); const m = await import('agentwire'); console.log(typeof g.MCPGateway, typeof g.createRedisEventBus, typeof g.RedisEventBusError, 'MCPGateway' in m);";
    const result = await run(process.execPath, ['--input-type=module', '-e', script], app);
    expect(result).toEqual({ code: 0, stdout: 'function function function false\n', stderr: '' });
  });

  // require(esm): Node 20.19+ and 22.12+. On older hosts this case is left to the CI jobs on newer Node.
  it.runIf((process.features as { require_module?: boolean }).require_module === true)(
    'is required from CommonJS where Node supports require(esm)',
    async () => {
      const script =
        "const m = require('agentwire'); console.log(typeof m.MCPClient, typeof m.defaultTools);";
      const result = await run(process.execPath, ['-e', script], app);
      expect(result).toEqual({ code: 0, stdout: 'function function\n', stderr: '' });
    },
  );

  it("type-checks a user's code against the shipped declarations, without the model SDKs", () => {
    const file = path.join(app, 'index.ts');
    writeFileSync(
      file,
      [
        "import { anthropic, MCPClient, type MCPTool, type Model } from 'agentwire';",
        "const client = MCPClient.fromStdio({ command: 'node', args: ['server.js'] });",
        'const tools: MCPTool[] = client.getTools();',
        "const model: Model = anthropic({ model: 'claude-sonnet-5' });",
        'export { model, tools };',
        '',
      ].join('\n'),
    );
    const program = ts.createProgram([file], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      // A Node project has @types/node; this one borrows the checkout's.
      types: ['node'],
      typeRoots: [path.join(ROOT, 'node_modules', '@types')],
    });
    // The user's file and agentwire's declarations; the dependencies' own declarations are theirs.
    const shipped = path.join(app, 'node_modules', 'agentwire') + path.sep;
    const checked = program
      .getSourceFiles()
      .filter((source) => source.fileName === file || source.fileName.startsWith(shipped));
    const ours = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...checked.flatMap((source) => [
        ...program.getSyntacticDiagnostics(source),
        ...program.getSemanticDiagnostics(source),
      ]),
    ].map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(checked.map((source) => path.relative(shipped, source.fileName))).toEqual(
      expect.arrayContaining([
        'dist/index.d.ts',
        'dist/providers/anthropic.d.ts',
        'dist/mcp/client/client.d.ts',
      ]),
    );
    expect(ours).toEqual([]);
  });
});

describe('a model without its SDK', () => {
  it('fails its first request with a ModelError of kind not_configured naming the package', async () => {
    const script = [
      "const { openai } = await import('agentwire');",
      "const model = openai({ model: 'gpt-4.1', baseURL: 'http://127.0.0.1:9/v1' });",
      "const stream = model.stream({ messages: [{ role: 'user', content: 'hi' }], tools: [] });",
      'try { for await (const event of stream) console.log(event.type); } catch (error) {',
      '  console.log(error.name, error.kind, error.provider, error.message); }',
    ].join('\n');
    const result = await run(process.execPath, ['--input-type=module', '-e', script], app);
    expect(result).toEqual({
      code: 0,
      stdout:
        'ModelError not_configured openai the openai provider needs the package openai, which is not ' +
        'installed: npm install openai\n',
      stderr: '',
    });
  });
});

describe('the installed CLI', () => {
  /** Runs the installed CLI recording every module it asks for; the bare package names, deduplicated. */
  async function recordImports(args: string[]): Promise<{ result: Run; packages: string[] }> {
    const record = path.join(temp, `imports-${args[0]}.txt`);
    const main = path.join(app, 'node_modules', 'agentwire', 'dist', 'cli', 'main.js');
    const result = await run(process.execPath, ['--import', RECORD_IMPORTS, main, ...args], app, {
      RECORD_IMPORTS_FILE: record,
    });
    const specifiers = readFileSync(record, 'utf8').split('\n');
    const packages = specifiers.filter((s) => s !== '' && !/^(\.|\/|file:|node:)/.test(s));
    return { result, packages: [...new Set(packages)].sort() };
  }

  it('asks for no model SDK to print its help', async () => {
    const { result, packages } = await recordImports(['--help']);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(packages).toContain('commander');
    expect(packages.filter((name) => MODEL_SDK.test(name))).toEqual([]);
  });

  it('asks for no model SDK to list and call a server’s tools', async () => {
    const server = quote([process.execPath, EVERYTHING]);
    const tools = await recordImports(['tools', '--stdio', server]);
    expect([tools.result.code, tools.result.stderr]).toEqual([0, '']);
    expect(tools.result.stdout).toMatch(/^echo: Echoes back the input string$/m);
    expect(tools.packages).toContain('@modelcontextprotocol/client');
    expect(tools.packages.filter((name) => MODEL_SDK.test(name))).toEqual([]);

    const call = await recordImports(['call', '--stdio', server, 'echo', '{"message":"hi"}']);
    expect(call.result).toEqual({ code: 0, stdout: 'Echo: hi\n', stderr: '' });
    expect(call.packages.filter((name) => MODEL_SDK.test(name))).toEqual([]);
  });

  it('names the SDK to install when `run` needs one that is missing, before starting any server', async () => {
    // Were the server started first, its failure (exit 3) would be the error.
    const missing = quote([process.execPath, path.join(temp, 'no-such-server.js')]);
    const result = await run('npx', ['--no', '--', 'agentwire', 'run', 'hi', '--stdio', missing], app, {
      ANTHROPIC_API_KEY: 'sk-ant-test',
    });
    expect(result).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: the anthropic provider needs the package @anthropic-ai/sdk, which is not installed: ' +
        'npm install @anthropic-ai/sdk\n',
    });
  });
});
