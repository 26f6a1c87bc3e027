/**
 * Images of tool results, fitted to what a vendor API takes before they are sent. An MCP server may return
 * a 4K screenshot or a 30 MB photo; sent as is, the vendor refuses the request, and since every later
 * request carries the conversation again, it refuses those too. Each image is sent when within the limits,
 * scaled down with `sharp` (an optional dependency, imported on first need) when over them, and replaced by
 * its placeholder text when neither works. The newest images win when a request holds more than allowed.
 */
import type { ToolOutputMedia } from '../core/tool-output.js';
import type { Message } from './model.js';

/** Options of the built-in adapters for images in tool results. */
export interface ImageOptions {
  /** Send images of tool results to the model. `false`: their placeholder text only. Default true. */
  sendImages?: boolean;
  /** Largest image sent, in decoded bytes; larger ones are scaled down, else replaced by the placeholder. */
  maxImageBytes?: number;
  /** Longest edge of an image sent, in pixels; larger ones are scaled down to it (aspect ratio kept). */
  maxImageDimensionPx?: number;
  /** Most images in one request; the newest are sent, older ones become their placeholder. */
  maxImagesPerRequest?: number;
  /** Most image bytes (decoded) in one request, newest first; further images become their placeholder. */
  maxImageBytesPerRequest?: number;
}

/** The limits an adapter applies: its {@link ImageOptions} with its vendor's defaults filled in. */
export interface ImageLimits extends Required<ImageOptions> {
  /** MIME types the API takes; others are converted to PNG. */
  mimeTypes: readonly string[];
}

/** An image ready to send: base64 data and its MIME type. */
export interface PreparedImage {
  data: string;
  mimeType: string;
}

/** The images of `messages` to send, by part; a part not in the map is sent as its placeholder. */
export type PreparedImages = ReadonlyMap<ToolOutputMedia, PreparedImage>;

/** Fills `options` in with `defaults`. */
export function imageLimits(options: ImageOptions, defaults: ImageLimits): ImageLimits {
  const limits = { ...defaults };
  for (const key of Object.keys(defaults) as (keyof ImageOptions)[]) {
    if (options[key] !== undefined) (limits as Record<string, unknown>)[key] = options[key];
  }
  return limits;
}

/**
 * Prepares the images of every tool result in `messages`, newest first, until `maxImagesPerRequest` or
 * `maxImageBytesPerRequest` is reached. Never throws: an image that cannot be read or fitted is left out.
 */
export async function prepareImages(
  messages: readonly Message[],
  limits: ImageLimits,
): Promise<PreparedImages> {
  const prepared = new Map<ToolOutputMedia, PreparedImage>();
  if (!limits.sendImages) return prepared;
  const images = messages
    .flatMap((m) => (m.role === 'tool' ? m.results.flatMap((r) => r.parts ?? []) : []))
    .filter((p): p is ToolOutputMedia => p.type === 'image')
    .reverse();
  let bytes = 0;
  for (const image of images) {
    if (prepared.size >= limits.maxImagesPerRequest) break;
    const fitted = await fitImageCached(image, limits);
    if (fitted === undefined) continue;
    const size = Buffer.byteLength(fitted.data, 'base64');
    if (bytes + size > limits.maxImageBytesPerRequest) break;
    bytes += size;
    prepared.set(image, fitted);
  }
  return prepared;
}

/** The conversation is sent again on every turn: each image is fitted once per set of limits. */
const cache = new WeakMap<ToolOutputMedia, Map<string, Promise<PreparedImage | undefined>>>();

function fitImageCached(image: ToolOutputMedia, limits: ImageLimits): Promise<PreparedImage | undefined> {
  const key = JSON.stringify([limits.maxImageBytes, limits.maxImageDimensionPx, limits.mimeTypes]);
  const byLimits = cache.get(image) ?? new Map<string, Promise<PreparedImage | undefined>>();
  cache.set(image, byLimits);
  let fitted = byLimits.get(key);
  if (fitted === undefined) {
    fitted = fitImage(image, limits).catch(() => undefined);
    byLimits.set(key, fitted);
  }
  return fitted;
}

type SharpModule = typeof import('sharp')['default'];
let sharpModule: Promise<SharpModule | undefined> | undefined;

/** `sharp`, or `undefined` when it is not installed (or its native part does not load on this platform). */
function loadSharp(): Promise<SharpModule | undefined> {
  sharpModule ??= import('sharp').then(
    (module) => module.default,
    () => undefined,
  );
  return sharpModule;
}

/** Scale steps: each retry shrinks the longest edge to this share of the previous try. */
const SHRINK = 0.75;
/** Below this edge an image says nothing; the placeholder is sent instead. */
const MIN_EDGE_PX = 32;

async function fitImage(image: ToolOutputMedia, limits: ImageLimits): Promise<PreparedImage | undefined> {
  const input = Buffer.from(image.data, 'base64');
  const sharp = await loadSharp();
  if (sharp === undefined) return fitWithoutSharp(input, image.mimeType, limits);
  const meta = await sharp(input).metadata();
  const { width, height, format } = meta;
  if (width === undefined || height === undefined) return undefined;
  const mimeType = `image/${format}`;
  const longest = Math.max(width, height);
  const animated = (meta.pages ?? 1) > 1;
  if (
    limits.mimeTypes.includes(mimeType) &&
    mimeType === image.mimeType &&
    !animated &&
    input.length <= limits.maxImageBytes &&
    longest <= limits.maxImageDimensionPx
  ) {
    return { data: input.toString('base64'), mimeType };
  }
  // Re-encoded in its own format when the API takes it (GIF as PNG: sharp writes GIF poorly), else PNG;
  // a PNG still too large becomes a JPEG on white, smaller at the same size.
  let target: 'png' | 'jpeg' | 'webp' = format === 'jpeg' || format === 'webp' ? format : 'png';
  if (!limits.mimeTypes.includes(`image/${target}`)) target = 'png';
  let edge = Math.min(longest, limits.maxImageDimensionPx);
  while (edge >= MIN_EDGE_PX) {
    const resized = sharp(input).resize({
      width: edge,
      height: edge,
      fit: 'inside',
      withoutEnlargement: true,
    });
    const output =
      target === 'jpeg'
        ? await resized.flatten({ background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer()
        : await resized.toFormat(target).toBuffer();
    if (output.length <= limits.maxImageBytes) {
      return { data: output.toString('base64'), mimeType: `image/${target}` };
    }
    if (target === 'png' && limits.mimeTypes.includes('image/jpeg')) target = 'jpeg';
    else edge = Math.floor(edge * SHRINK);
  }
  return undefined;
}

/**
 * Without `sharp`: an image is sent as is when its format is taken, its size within `maxImageBytes` and its
 * dimensions, read from its header, within `maxImageDimensionPx`; anything else becomes the placeholder.
 * Exported for tests only.
 */
export function fitWithoutSharp(
  input: Buffer,
  mimeType: string,
  limits: ImageLimits,
): PreparedImage | undefined {
  if (!limits.mimeTypes.includes(mimeType) || input.length > limits.maxImageBytes) return undefined;
  const size = headerSize(input);
  if (size === undefined || size.format !== mimeType) return undefined;
  if (Math.max(size.width, size.height) > limits.maxImageDimensionPx) return undefined;
  return { data: input.toString('base64'), mimeType };
}

interface HeaderSize {
  format: string;
  width: number;
  height: number;
}

/**
 * Format and size from an image's header: PNG (IHDR, PNG spec 11.2.2), GIF (logical screen descriptor,
 * GIF89a section 18), JPEG (the first SOFn marker, ITU T.81 B.2.2), WebP (VP8X canvas; VP8 and VP8L frame
 * headers, RFC 9649). `undefined` when the header is not one of these or is cut short.
 */
function headerSize(b: Buffer): HeaderSize | undefined {
  const ascii = (from: number, to: number) => b.toString('latin1', from, to);
  if (b.length >= 24 && ascii(1, 4) === 'PNG') {
    return { format: 'image/png', width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (b.length >= 10 && ascii(0, 3) === 'GIF') {
    return { format: 'image/gif', width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) return jpegSize(b);
  if (b.length >= 30 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') {
    const chunk = ascii(12, 16);
    const webp = (width: number, height: number) => ({ format: 'image/webp', width, height });
    if (chunk === 'VP8X') return webp(1 + b.readUIntLE(24, 3), 1 + b.readUIntLE(27, 3));
    if (chunk === 'VP8 ') return webp(b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff);
    if (chunk === 'VP8L') {
      const bits = b.readUInt32LE(21);
      return webp((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
    }
  }
  return undefined;
}

function jpegSize(b: Buffer): HeaderSize | undefined {
  let at = 2;
  while (at + 9 <= b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1] ?? 0;
    // SOF0 to SOF15, except DHT (C4), JPG (C8) and DAC (CC), carry the frame size.
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { format: 'image/jpeg', width: b.readUInt16BE(at + 7), height: b.readUInt16BE(at + 5) };
    }
    at += 2 + b.readUInt16BE(at + 2);
  }
  return undefined;
}
