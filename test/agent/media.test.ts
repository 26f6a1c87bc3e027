/**
 * Images of MCP tool results through both providers' real wire formats (the fake vendor servers): the
 * tiny PNG of server-everything's `get-tiny-image` sent as it is, a 3000 × 1200 PNG read by
 * server-filesystem's `read_media_file` scaled to the vendor's limit, the placeholder when an image cannot
 * be fitted or `sendImages` is off, and `formatResult` still deciding everything.
 */
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.js';
import { MCPClient } from '../../src/mcp/index.js';
import { anthropic, openai } from '../../src/providers/index.js';
import { startFakeAnthropic } from '../fixtures/fake-anthropic.js';
import { startFakeOpenAI } from '../fixtures/fake-openai.js';
import { useFakeModelServer } from '../fixtures/use-fake-model-server.js';
import { EVERYTHING, FILESYSTEM, tempDir } from '../helpers.js';

type Body = Record<string, unknown> | undefined;
const messages = (body: Body) => (body?.messages ?? []) as Record<string, unknown>[];

/** server-everything's tiny image, as its `get-tiny-image` tool returns it. */
async function tinyImage(): Promise<string> {
  const module = (await import(path.join(path.dirname(EVERYTHING), 'tools', 'get-tiny-image.js'))) as {
    MCP_TINY_IMAGE: string;
  };
  return module.MCP_TINY_IMAGE;
}

/** Width, height and format of a base64 image. */
async function describeImage(data: string) {
  const { width, height, format } = await sharp(Buffer.from(data, 'base64')).metadata();
  return { width, height, format };
}

let everything: MCPClient;
let files: MCPClient;
const workspace = tempDir('agentwire-media-');
const wide = path.join(workspace.dir, 'wide.png');

beforeAll(async () => {
  // A real PNG, 3000 × 1200: a gradient, so that it does not compress to nothing.
  const width = 3000;
  const height = 1200;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = (i * 7) % 251;
  await sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toFile(wide);
  everything = MCPClient.fromStdio({ command: process.execPath, args: [EVERYTHING] }, { name: 'everything' });
  files = MCPClient.fromStdio(
    { command: process.execPath, args: [FILESYSTEM, workspace.dir] },
    { name: 'fs' },
  );
  await Promise.all([everything.connect(), files.connect()]);
});

afterAll(async () => {
  await Promise.all([everything.disconnect(), files.disconnect()]);
  workspace.remove();
});

describe('images through the Anthropic Messages API', () => {
  const fake = useFakeModelServer(startFakeAnthropic);
  const model = (options = {}) =>
    anthropic({ model: 'claude-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0, ...options });

  it("sends get-tiny-image's PNG as an image block inside the tool_result, between its texts", async () => {
    fake.script({ toolCalls: [{ id: 't1', name: 'get-tiny-image', input: {} }] }, { text: 'A logo.' });
    const agent = new Agent({ model: model(), tools: await everything.getTools() });
    await agent.execute('show me the image');
    expect(messages(fake.requests[1])[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 't1',
          content: [
            { type: 'text', text: "Here's the image you requested:" },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: await tinyImage() } },
            { type: 'text', text: 'The image above is the MCP logo.' },
          ],
          is_error: false,
        },
      ],
    });
    // The conversation keeps the image: the next request sends it again, unchanged.
    fake.script({ text: 'Still a logo.' });
    await agent.execute('and now?');
    const again = messages(fake.requests[2])[2] as { content: { content: unknown[] }[] };
    expect(again.content[0]?.content[1]).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: await tinyImage() },
    });
  });

  it('scales a 3000 × 1200 PNG from read_media_file down to 1568 px on its longest edge', async () => {
    fake.script(
      { toolCalls: [{ id: 'w1', name: 'read_media_file', input: { path: wide } }] },
      { text: 'ok' },
    );
    const agent = new Agent({ model: model(), tools: await files.getTools() });
    await agent.execute('look at wide.png');
    const result = (messages(fake.requests[1])[2] as { content: Record<string, unknown>[] }).content[0];
    const blocks = result?.content as { type: string; source: { data: string } }[];
    expect(blocks.map((b) => b.type)).toEqual(['image']);
    expect({ ...result, content: undefined }).toEqual({
      type: 'tool_result',
      tool_use_id: 'w1',
      content: undefined,
      is_error: false,
    });
    expect(blocks[0]?.source).toEqual({ type: 'base64', media_type: 'image/png', data: expect.any(String) });
    expect(await describeImage(blocks[0]?.source.data ?? '')).toEqual({
      width: 1568,
      height: 627,
      format: 'png',
    });
  });

  it('re-encodes as JPEG, then shrinks, to fit maxImageBytes', async () => {
    fake.script(
      { toolCalls: [{ id: 'w2', name: 'read_media_file', input: { path: wide } }] },
      { text: 'ok' },
    );
    const agent = new Agent({ model: model({ maxImageBytes: 60_000 }), tools: await files.getTools() });
    await agent.execute('look at wide.png');
    const result = (messages(fake.requests[1])[2] as { content: Record<string, unknown>[] }).content[0];
    const [block] = (result?.content ?? []) as { source: { media_type: string; data: string } }[];
    expect(block?.source.media_type).toBe('image/jpeg');
    expect(Buffer.byteLength(block?.source.data ?? '', 'base64')).toBeLessThanOrEqual(60_000);
    const size = await describeImage(block?.source.data ?? '');
    expect(size.format).toBe('jpeg');
    expect(size.width).toBeLessThan(1568);
  });

  it('sends the placeholder when the image cannot be fitted, or when sendImages is false', async () => {
    for (const options of [{ maxImageBytes: 10 }, { sendImages: false }]) {
      fake.requests.length = 0;
      fake.script({ toolCalls: [{ id: 'p1', name: 'get-tiny-image', input: {} }] }, { text: 'ok' });
      const agent = new Agent({ model: model(options), tools: await everything.getTools() });
      await agent.execute('show me the image');
      expect(messages(fake.requests[1])[2]).toEqual({
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'p1',
            content:
              "Here's the image you requested:\n[image content: image/png, 3.9 KB]\nThe image above is the MCP logo.",
            is_error: false,
          },
        ],
      });
    }
  });

  it('leaves everything to formatResult when the client has one', async () => {
    const formatted = MCPClient.fromStdio(
      { command: process.execPath, args: [EVERYTHING] },
      { name: 'everything', formatResult: (result) => `${result.content.length} blocks` },
    );
    try {
      await formatted.connect();
      fake.script({ toolCalls: [{ id: 'f1', name: 'get-tiny-image', input: {} }] }, { text: 'ok' });
      const agent = new Agent({ model: model(), tools: await formatted.getTools() });
      await agent.execute('show me the image');
      const result = (messages(fake.requests[1])[2] as { content: Record<string, unknown>[] }).content[0];
      expect(result?.content).toBe('3 blocks');
    } finally {
      await formatted.disconnect();
    }
  });
});

describe('images through OpenAI Chat Completions', () => {
  const fake = useFakeModelServer(startFakeOpenAI);
  const model = (options = {}) =>
    openai({ model: 'gpt-test', apiKey: 'k', baseURL: fake.baseURL, maxRetries: 0, ...options });

  it('announces the image in the tool message and sends it in a user message after the tool messages', async () => {
    fake.script(
      {
        toolCalls: [
          { id: 'c1', name: 'get-tiny-image', input: {} },
          { id: 'c2', name: 'echo', input: { message: 'hi' } },
        ],
      },
      { text: 'A logo.' },
    );
    const agent = new Agent({ model: model(), tools: await everything.getTools() });
    await agent.execute('show me the image');
    expect(messages(fake.requests[1]).slice(2)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'c1',
        content:
          "Here's the image you requested:\n[image 1: in the user message after the tool results]\nThe image above is the MCP logo.",
      },
      { role: 'tool', tool_call_id: 'c2', content: 'Echo: hi' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Image 1, from the result of get-tiny-image (tool call c1):' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${await tinyImage()}` } },
        ],
      },
    ]);
  });

  it('scales a 3000 × 1200 PNG from read_media_file down to 2048 px on its longest edge', async () => {
    fake.script(
      { toolCalls: [{ id: 'w1', name: 'read_media_file', input: { path: wide } }] },
      { text: 'ok' },
    );
    const agent = new Agent({ model: model(), tools: await files.getTools() });
    await agent.execute('look at wide.png');
    const [tool, user] = messages(fake.requests[1]).slice(2) as { content: unknown }[];
    expect(tool).toEqual({
      role: 'tool',
      tool_call_id: 'w1',
      content: '[image 1: in the user message after the tool results]',
    });
    const [intro, image] = (user?.content ?? []) as [unknown, { image_url: { url: string } }];
    expect(intro).toEqual({
      type: 'text',
      text: 'Image 1, from the result of read_media_file (tool call w1):',
    });
    const url = image.image_url.url;
    expect(url.startsWith('data:image/png;base64,')).toBe(true);
    expect(await describeImage(url.slice('data:image/png;base64,'.length))).toEqual({
      width: 2048,
      height: 819,
      format: 'png',
    });
  });

  it('sends only the placeholder when sendImages is false', async () => {
    fake.script({ toolCalls: [{ id: 'n1', name: 'get-tiny-image', input: {} }] }, { text: 'ok' });
    const agent = new Agent({ model: model({ sendImages: false }), tools: await everything.getTools() });
    await agent.execute('show me the image');
    expect(messages(fake.requests[1]).slice(2)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'n1',
        content:
          "Here's the image you requested:\n[image content: image/png, 3.9 KB]\nThe image above is the MCP logo.",
      },
    ]);
  });
});
