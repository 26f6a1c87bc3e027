/**
 * The README's two quick starts, each an example file shown verbatim:
 * - the library quick start (examples/quickstart.ts) runs in a fresh project as the README says: a folder of
 *   its own with `"type": "module"`, `agentwire` and server-everything in its node_modules (this checkout's
 *   build and the copy installed here, linked), the file's types stripped as `tsx` strips them, and `node`
 *   run in that folder. What it prints is the README's output block.
 * - the agent quick start (examples/agent.ts) runs against a fake Anthropic API that plays the model's part,
 *   with server-everything as the README has it; what it prints is the README's output block.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { ROOT, tempDir } from '../helpers.js';
import { examplePath, exampleText, printedBy } from './examples.js';
import { docBlock } from './markdown.js';

// `agentwire` is the package itself; in the in-process runs it is the sources, so no build is needed.
vi.mock('agentwire', () => import('../../src/index.js'));

const quickstartPath = examplePath('quickstart.ts');
const agentPath = examplePath('agent.ts');
const QUICK_START = '## Library quick start';
const AGENT = '## Agent quick start';

describe('the README library quick start', () => {
  it('shows examples/quickstart.ts verbatim, and installs server-everything beside agentwire', () => {
    expect(docBlock('README.md', QUICK_START, 'ts')).toBe(exampleText(quickstartPath));
    const install = docBlock('README.md', QUICK_START, 'sh');
    expect(install).toContain('npm install agentwire @modelcontextprotocol/server-everything\n');
    expect(install).toContain('npm pkg set type=module');
    expect(install).toContain('npx tsx quickstart.ts');
  });

  it('prints what the README says it prints, run with node in a fresh project', async () => {
    // The built package, as the project's dependency resolves it (package.json "exports" → dist/).
    expect(existsSync(path.join(ROOT, 'dist', 'index.js')), 'run `npm run build` first').toBe(true);
    const project = tempDir('agentwire-fresh-');
    try {
      const modules = path.join(project.dir, 'node_modules');
      mkdirSync(path.join(modules, '@modelcontextprotocol'), { recursive: true });
      symlinkSync(ROOT, path.join(modules, 'agentwire'), 'dir');
      symlinkSync(
        path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything'),
        path.join(modules, '@modelcontextprotocol', 'server-everything'),
        'dir',
      );
      writeFileSync(
        path.join(project.dir, 'package.json'),
        JSON.stringify({ name: 'fresh', version: '1.0.0', type: 'module' }),
      );
      // What tsx runs: the file with its types stripped, an ES module.
      const { outputText } = ts.transpileModule(exampleText(quickstartPath), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      writeFileSync(path.join(project.dir, 'quickstart.js'), outputText);
      const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          ['quickstart.js'],
          { cwd: project.dir, timeout: 30_000 },
          (error, stdout, stderr) => {
            resolve({
              code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1,
              stdout,
              stderr,
            });
          },
        );
      });
      expect(run).toEqual({ code: 0, stdout: docBlock('README.md', QUICK_START, 'text'), stderr: '' });
    } finally {
      project.remove();
    }
  });
});

describe('the README agent quick start', () => {
  const fake = useFakeModelServer(startFakeAnthropic);
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('shows examples/agent.ts verbatim', () => {
    expect(docBlock('README.md', AGENT, 'ts')).toBe(exampleText(agentPath));
  });

  it('prints what the README says it prints, with a model that calls get-sum, then get-env', async () => {
    for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'AGENTWIRE_MODEL']) vi.stubEnv(name, undefined);
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-test');
    vi.stubEnv('ANTHROPIC_BASE_URL', fake.baseURL);
    fake.script(
      { toolCalls: [{ name: 'get-sum', input: { a: 2, b: 40 } }] },
      { toolCalls: [{ name: 'get-env', input: {} }] },
      { text: '2 + 40 = 42. I was not allowed to read your environment.' },
      { text: 'Forty-two.' },
    );
    const printed = await printedBy(agentPath);
    expect(`${printed.join('\n')}\n`).toBe(docBlock('README.md', AGENT, 'text'));
    // The refused call never reached the server, and the model was told why.
    expect(JSON.stringify(fake.requests[2])).toContain('the environment is private');
  });
});
