/**
 * `agentwire run`'s flags for the agent's and the model adapters' limits, through the built CLI with the
 * fake Anthropic server: `--max-concurrent-calls`, `--tool-search-threshold`, `--max-tools-per-request` and
 * the image flags, each seen where it takes effect (the order of tool results, the tools and images a model
 * request carries), plus their `--help` lines and usage errors.
 */
import { quote } from 'shell-quote';
import { beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { SCRIPTED } from '../helpers.js';
import { ensureBuilt, fakeAnthropicEnv, helpLines, runBuilt } from './built-cli.js';
import { EVERYTHING } from './run-cli.js';

const fake = useFakeModelServer(startFakeAnthropic);
const SCRIPTED_SERVER = quote([process.execPath, SCRIPTED]);

beforeAll(() => {
  ensureBuilt();
}, 120_000);

const env = () => fakeAnthropicEnv(fake.baseURL);

const timeless = (text: string) => text.replace(/\(\d+ ms\)/g, '(N ms)');

/** The tool names model request `index` offered. */
const offered = (index: number) =>
  ((fake.requests[index]?.tools ?? []) as { name: string }[]).map((tool) => tool.name);

/** The content of the `tool_result` the model was given for `id`. */
function resultFor(id: string): unknown {
  for (const request of fake.requests) {
    for (const message of request.messages as { content: unknown }[]) {
      if (!Array.isArray(message.content)) continue;
      const found = (message.content as { tool_use_id?: string; content?: unknown }[]).find(
        (part) => part.tool_use_id === id,
      );
      if (found) return found.content;
    }
  }
  return undefined;
}

describe('agentwire run limits', () => {
  it("--max-concurrent-calls 1 runs one turn's calls to a server one after the other", async () => {
    const turn = () =>
      fake.script(
        {
          toolCalls: [
            { id: 'toolu_1', name: 'sleep', input: { ms: 800 } },
            { id: 'toolu_2', name: 'echo', input: { text: 'quick' } },
          ],
        },
        { text: 'Done.' },
      );
    const args = ['run', 'Go.', '--stdio', SCRIPTED_SERVER, '--yes'];
    turn();
    const free = await runBuilt(args, { env: env() });
    turn();
    const bounded = await runBuilt([...args, '--max-concurrent-calls', '1'], { env: env() });
    const start = '▸ sleep [scripted-server] {"ms":800}\n▸ echo [scripted-server] {"text":"quick"}\n';
    expect([timeless(free.stdout), timeless(bounded.stdout)]).toEqual([
      `${start}  ✓ echo (N ms) echo: quick\n  ✓ sleep (N ms) slept 800\nDone.\n`,
      `${start}  ✓ sleep (N ms) slept 800\n  ✓ echo (N ms) echo: quick\nDone.\n`,
    ]);
  }, 60_000);

  it("--tool-search-threshold 0 offers search_tools in place of the server's tools", async () => {
    fake.script({ text: 'Nothing to do.' });
    const run = await runBuilt(['run', 'Hi.', '--stdio', EVERYTHING, '--tool-search-threshold', '0'], {
      env: env(),
    });
    expect({ ...run, tools: offered(0) }).toEqual({
      code: 0,
      stdout: 'Nothing to do.\n',
      stderr:
        `warning: 14 tools are more than --tool-search-threshold (0): the model ` +
        'is offered search_tools and loads the tools it needs (deferred: server-everything (14))\n',
      tools: ['search_tools'],
    });
  }, 60_000);

  it('--max-tools-per-request 2 sends two tools and warns about the rest', async () => {
    fake.script({ text: 'Nothing to do.' });
    const run = await runBuilt(['run', 'Hi.', '--stdio', EVERYTHING, '--max-tools-per-request', '2'], {
      env: env(),
    });
    expect({ ...run, tools: offered(0) }).toEqual({
      code: 0,
      stdout: 'Nothing to do.\n',
      stderr:
        `warning: 12 of 14 tools not offered: anthropic takes at most 2 tools ` +
        'per request (--max-tools-per-request; a lower --tool-search-threshold lets the model search them all); ' +
        'left out: get-env, get-resource-links, get-resource-reference, get-structured-content, get-sum, ' +
        'get-tiny-image, gzip-file-as-resource, toggle-simulated-logging, toggle-subscriber-updates, ' +
        'trigger-long-running-operation, trigger-sampling-request, simulate-research-query\n',
      tools: ['echo', 'get-annotated-message'],
    });
  }, 60_000);

  it('--no-images and --max-image-bytes send an image of a tool result as its placeholder', async () => {
    const script = () =>
      fake.script({ toolCalls: [{ id: 'toolu_1', name: 'get-tiny-image', input: {} }] }, { text: 'Seen.' });
    script();
    await runBuilt(['run', 'Look.', '--stdio', EVERYTHING, '--yes'], { env: env() });
    const sent = resultFor('toolu_1');
    fake.requests.length = 0;
    script();
    const none = await runBuilt(['run', 'Look.', '--stdio', EVERYTHING, '--yes', '--no-images'], {
      env: env(),
    });
    const withoutImages = resultFor('toolu_1');
    fake.requests.length = 0;
    script();
    await runBuilt(['run', 'Look.', '--stdio', EVERYTHING, '--yes', '--max-image-bytes', '10'], {
      env: env(),
    });
    const placeholder =
      "Here's the image you requested:\n[image content: image/png, 3.9 KB]\nThe image above is the MCP logo.";
    expect({
      none: { ...none, stdout: timeless(none.stdout) },
      sent: (sent as { type: string }[]).map((part) => part.type),
      withoutImages,
      tooBig: resultFor('toolu_1'),
    }).toEqual({
      none: {
        code: 0,
        stdout:
          '▸ get-tiny-image [server-everything] {}\n' +
          "  ✓ get-tiny-image (N ms) Here's the image you requested: ⏎ [image content: image/png, 3.9 KB] ⏎ " +
          'The image above is the MCP logo.\nSeen.\n',
        stderr: '',
      },
      sent: ['text', 'image', 'text'],
      withoutImages: placeholder,
      tooBig: placeholder,
    });
  }, 60_000);
});

describe('agentwire run limit flags on the command line', () => {
  it('--help lists them with their units and defaults', async () => {
    const help = await runBuilt(['run', '--help'], { env: env() });
    const lines = helpLines(help.stdout).filter((line) =>
      /--(max-(concurrent|tools|image)|tool-search|no-images)/.test(line),
    );
    expect(lines).toEqual([
      "  --max-concurrent-calls <calls>         most tool calls in flight to each server (a --config entry's maxConcurrentCalls wins; default no bound)",
      '  --tool-search-threshold <tools>        above this many tools the model finds them with search_tools; 0 always (default 64)',
      "  --max-tools-per-request <tools>        most tools one model request carries (default: the provider's bound, 128 for openai)",
      '  --no-images                            send the images of tool results as their placeholder text only',
      "  --max-image-bytes <bytes>              largest image sent, decoded; larger ones are scaled down (default: the provider's limit)",
      "  --max-image-dimension-px <px>          longest edge of an image sent; larger ones are scaled down (default: the provider's limit)",
      "  --max-images-per-request <images>      most images in one model request, newest first (default: the provider's limit)",
      "  --max-image-bytes-per-request <bytes>  most image bytes in one model request, newest first (default: the provider's limit)",
    ]);
  });

  it.each([
    [
      ['--tool-search-threshold', 'x'],
      "error: option '--tool-search-threshold <tools>' argument 'x' is invalid. Expected a whole number of tools, at least 0.",
    ],
    [
      ['--max-tools-per-request', '0'],
      "error: option '--max-tools-per-request <tools>' argument '0' is invalid. Expected a whole number of tools, at least 1.",
    ],
    [
      ['--max-concurrent-calls', '1.5'],
      "error: option '--max-concurrent-calls <calls>' argument '1.5' is invalid. Expected a whole number of calls, at least 1.",
    ],
    [
      ['--max-image-dimension-px', '-1'],
      "error: option '--max-image-dimension-px <px>' argument '-1' is invalid. Expected a whole number of pixels, at least 1.",
    ],
  ])('%j is a usage error', async (flags, line) => {
    const run = await runBuilt(['run', 'Hi.', ...flags], { env: env() });
    expect(run).toEqual({ code: 2, stdout: '', stderr: `${line}\n(add --help for usage)\n` });
  });
});
