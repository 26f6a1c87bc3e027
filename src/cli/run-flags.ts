/**
 * Commander parsers of `agentwire run`'s numeric options, apart from run-options.ts so that registering the
 * command loads no agent code.
 */
import { InvalidArgumentError } from 'commander';

/** Commander parser for `--max-turns`: a whole number of at least 1. */
export function turnCount(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed) || parsed <= 0) {
    throw new InvalidArgumentError('Expected a whole number of turns, at least 1.');
  }
  return parsed;
}

/** Commander parser for `--max-result-bytes`: a whole number of bytes, at least 1 000 (room for the cut notice). */
export function resultBytes(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed) || parsed < 1_000) {
    throw new InvalidArgumentError('Expected a whole number of bytes, at least 1000.');
  }
  return parsed;
}

/** Commander parser for the model timeouts: a whole number of milliseconds; `0` turns the bound off. */
export function timeoutMs(value: string): number {
  const parsed = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed)) {
    throw new InvalidArgumentError('Expected a whole number of milliseconds (0 for none).');
  }
  return parsed;
}

/** Commander collector for `--allow-tool`, which may be given more than once. */
export function collectPattern(value: string, previous: string[] = []): string[] {
  if (value.trim() === '') throw new InvalidArgumentError('Expected a tool name or pattern (e.g. fs__*).');
  return [...previous, value];
}

/** A commander parser for a whole number of at least `min`; the message names the unit (`tools`, `bytes`). */
function wholeNumber(min: number, unit: string): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(parsed) || parsed < min) {
      throw new InvalidArgumentError(`Expected a whole number of ${unit}, at least ${min}.`);
    }
    return parsed;
  };
}

/** `--tool-search-threshold`: a number of tools, `0` for searching always. */
export const toolThreshold = wholeNumber(0, 'tools');
/** `--max-tools-per-request`: a number of tools, at least 1. */
export const toolCount = wholeNumber(1, 'tools');
/** `--max-concurrent-calls`: a number of calls, at least 1. */
export const callCount = wholeNumber(1, 'calls');
/** `--max-images-per-request`: a number of images; `0` sends none. */
export const imageCount = wholeNumber(0, 'images');
/** `--max-image-bytes`, `--max-image-bytes-per-request`: a number of bytes, at least 1. */
export const byteCount = wholeNumber(1, 'bytes');
/** `--max-image-dimension-px`: a number of pixels, at least 1. */
export const pixelCount = wholeNumber(1, 'pixels');
