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
