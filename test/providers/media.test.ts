/**
 * Fitting images to a vendor's limits: without `sharp` (sizes read from the headers of real PNG, GIF,
 * JPEG and WebP files, written by sharp here), and the per-request bounds (newest images first).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { ToolOutputMedia } from '../../src/core/tool-output.js';
import type { Message } from '../../src/providers/index.js';
import { ANTHROPIC_IMAGE_LIMITS } from '../../src/providers/index.js';
import { fitWithoutSharp, imageLimits, prepareImages } from '../../src/providers/media.js';

async function image(
  format: 'png' | 'gif' | 'jpeg' | 'webp',
  width: number,
  height: number,
  lossless = false,
) {
  const pixels = Buffer.alloc(width * height * 3, 90);
  const encoded = sharp(pixels, { raw: { width, height, channels: 3 } });
  return format === 'webp' ? encoded.webp({ lossless }).toBuffer() : encoded.toFormat(format).toBuffer();
}

describe('images without sharp', () => {
  const limits = ANTHROPIC_IMAGE_LIMITS;

  it.each([
    ['png', false],
    ['gif', false],
    ['jpeg', false],
    ['webp', false],
    ['webp', true],
  ] as const)(
    'sends a %s (lossless: %s) within the limits as it is, and refuses one over them',
    async (format, lossless) => {
      const small = await image(format, 40, 30, lossless);
      const mimeType = `image/${format}`;
      expect(fitWithoutSharp(small, mimeType, limits)).toEqual({ data: small.toString('base64'), mimeType });
      expect(fitWithoutSharp(await image(format, 1600, 20, lossless), mimeType, limits)).toBeUndefined();
      expect(
        fitWithoutSharp(small, mimeType, { ...limits, maxImageBytes: small.length - 1 }),
      ).toBeUndefined();
    },
  );

  it('refuses a MIME type that does not match the data, or one the API does not take', async () => {
    const png = await image('png', 40, 30);
    expect(fitWithoutSharp(png, 'image/jpeg', ANTHROPIC_IMAGE_LIMITS)).toBeUndefined();
    expect(fitWithoutSharp(png, 'image/bmp', ANTHROPIC_IMAGE_LIMITS)).toBeUndefined();
    expect(fitWithoutSharp(Buffer.from('not an image'), 'image/png', ANTHROPIC_IMAGE_LIMITS)).toBeUndefined();
  });
});

describe('images of one request', () => {
  const media = async (n: number): Promise<ToolOutputMedia> => ({
    type: 'image',
    data: (await image('png', 10 + n, 10)).toString('base64'),
    mimeType: 'image/png',
    placeholder: `[image ${n}]`,
  });

  it('keeps the newest within maxImagesPerRequest and maxImageBytesPerRequest', async () => {
    const images = await Promise.all([1, 2, 3, 4].map(media));
    const messages: Message[] = images.map((part, i) => ({
      role: 'tool',
      results: [{ toolCallId: `c${i}`, name: 't', content: part.placeholder, isError: false, parts: [part] }],
    }));
    const byCount = await prepareImages(
      messages,
      imageLimits({ maxImagesPerRequest: 2 }, ANTHROPIC_IMAGE_LIMITS),
    );
    expect([...byCount.keys()]).toEqual([images[3], images[2]]);
    const two =
      Buffer.byteLength(images[3]?.data ?? '', 'base64') + Buffer.byteLength(images[2]?.data ?? '', 'base64');
    const byBytes = await prepareImages(
      messages,
      imageLimits({ maxImageBytesPerRequest: two }, ANTHROPIC_IMAGE_LIMITS),
    );
    expect([...byBytes.keys()]).toEqual([images[3], images[2]]);
    expect(
      (await prepareImages(messages, imageLimits({ sendImages: false }, ANTHROPIC_IMAGE_LIMITS))).size,
    ).toBe(0);
  });
});
