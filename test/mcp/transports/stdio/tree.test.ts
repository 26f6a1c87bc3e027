import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StdioTransport } from '../../../../src/mcp/transports/stdio/stdio-transport.js';
import { processesMatching } from '../../../fixtures/processes.js';
import {
  closeAll,
  connect,
  FIXTURE,
  fixture,
  HOST,
  isRunning,
  processesInGroups,
  processesWith,
  ROOT,
  WRAPPER,
  waitFor,
} from './helpers.js';

/** Every wrapped transport of the running test, and its marker, for the cleanup. */
const started = new Set<StdioTransport>();
const markers = new Set<string>();
/** Set when a test ended (passed, failed or timed out): its loops start nothing more. */
let ended = false;

afterEach(async () => {
  ended = true;
  // Even when a test timed out with cycles in flight: close what it started, then SIGKILL any process
  // of its markers still there (a wrapper ignores SIGTERM), so that nothing outlives the test.
  await Promise.all([...started].map((transport) => transport.close()));
  started.clear();
  for (const marker of markers)
    for (const { pid } of processesMatching(marker)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  markers.clear();
  await closeAll();
  ended = false;
});

/** The fixture server run through the SIGTERM-ignoring wrapper, so the server is our grandchild. */
function wrapped(marker: string, options: { closeGraceMs: number }): StdioTransport {
  markers.add(marker);
  const transport = new StdioTransport({
    command: '/bin/sh',
    args: [WRAPPER, process.execPath, FIXTURE, marker],
    serverName: 'wrapped',
    closeGraceMs: options.closeGraceMs,
  });
  started.add(transport);
  return transport;
}

describe('StdioTransport process tree', () => {
  it('leaves no process behind after 100 start/close cycles through a wrapper that ignores SIGTERM', async () => {
    const marker = `--agentwire-tree-${randomUUID()}`;
    const groups = new Set<number>();
    const cycle = async (i: number): Promise<void> => {
      const transport = wrapped(marker, { closeGraceMs: 50 });
      if (i % 10 === 0)
        await (await connect(transport)).ping(); // the grandchild really is the server
      else await transport.start();
      groups.add(transport.pid!);
      await transport.close();
      expect(transport.closeInfo?.kind).toBe('not_connected');
    };
    // Four at a time: enough to keep the test short, few enough for a shared two-core machine.
    for (let batch = 0; batch < 100 && !ended; batch += 4) {
      await Promise.all([0, 1, 2, 3].map((offset) => cycle(batch + offset)));
    }
    expect(groups.size).toBe(100);
    expect(processesWith(marker)).toEqual([]);
    expect(processesInGroups(groups)).toEqual([]);
  });

  it('ends an orphaned grandchild when the wrapper dies, and reports the wrapper death', async () => {
    const marker = `--agentwire-orphan-${randomUUID()}`;
    const transport = wrapped(marker, { closeGraceMs: 200 });
    await connect(transport);
    await waitFor(() => processesWith(marker).length === 2, 'the wrapper and its server');
    process.kill(transport.pid!, 'SIGKILL'); // only the wrapper: its server becomes an orphan
    await waitFor(() => transport.closeInfo !== undefined, 'closeInfo');
    expect(transport.closeInfo).toMatchObject({
      kind: 'connection_closed',
      message: 'server "wrapped" was killed by signal SIGKILL',
      signal: 'SIGKILL',
    });
    expect(processesWith(marker)).toEqual([]);
  });

  it('resolves close() once a server that exits on stdin EOF is gone, well within the grace period', async () => {
    const transport = fixture([], { closeGraceMs: 5000 });
    await connect(transport);
    const pid = transport.pid!;
    const started = Date.now();
    await transport.close();
    expect(Date.now() - started).toBeLessThan(2500);
    expect(isRunning(pid)).toBe(false);
    expect(transport.closeInfo).toMatchObject({ kind: 'not_connected', exitCode: 0, signal: null });
  });
});

describe('StdioTransport host exit hook', () => {
  let out: string;

  /** The transport and its local imports, transpiled to plain ESM that a bare `node` can load. */
  beforeAll(() => {
    out = mkdtempSync(path.join(tmpdir(), 'agentwire-stdio-host-'));
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(out, 'node_modules'), 'dir');
    // Every transport and core module (only those the stdio transport imports are loaded).
    const all = (dir: string) =>
      readdirSync(path.join(ROOT, dir))
        .filter((name) => name.endsWith('.ts'))
        .map((name) => `${dir}/${name}`);
    const files = [
      'src/core',
      'src/mcp/protocol',
      'src/mcp/transports',
      'src/mcp/transports/stdio',
      'src/mcp/transports/json',
    ].flatMap(all);
    for (const file of files) {
      const { outputText } = ts.transpileModule(readFileSync(path.join(ROOT, file), 'utf8'), {
        compilerOptions: {
          module: ts.ModuleKind.ESNext,
          target: ts.ScriptTarget.ES2022,
          verbatimModuleSyntax: true,
        },
      });
      const target = path.join(out, file.replace(/\.ts$/, '.js'));
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, outputText);
    }
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('SIGKILLs the process group of a still-running server when the host calls process.exit()', async () => {
    const marker = `--agentwire-host-${randomUUID()}`;
    const moduleUrl = pathToFileURL(path.join(out, 'src/mcp/transports/stdio/stdio-transport.js')).href;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [HOST, moduleUrl, '/bin/sh', WRAPPER, process.execPath, FIXTURE, '--ignore-stdin-end', marker],
      { timeout: 15_000 },
    );
    const { pid } = JSON.parse(stdout) as { pid: number };
    expect(pid).toBeGreaterThan(0);
    await waitFor(() => processesWith(marker).length === 0, 'the server tree to be gone', 3000);
    expect(processesInGroups(new Set([pid]))).toEqual([]);
  });
});
