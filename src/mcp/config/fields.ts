/**
 * Reading one server entry's fields: each read checks the JSON type, interpolates `${…}` references, and on
 * failure throws an {@link MCPConfigError} that names the file, the entry and the field, never a value.
 */
import { isRecord } from '../../core/json.js';
import { MCPConfigError } from '../protocol/errors.js';
import { type InterpolationScope, interpolate } from './interpolate.js';

/** Where a read happens, for error messages. */
export interface EntryContext {
  /** The file path, or the label of an in-memory config. */
  file: string;
  /** The entry's name. */
  entry: string;
  scope: InterpolationScope;
}

/** The error for something wrong with `field` (or the whole entry when `field` is undefined). */
export function entryError(
  context: Pick<EntryContext, 'file' | 'entry'>,
  field: string | undefined,
  problem: string,
  extra: { variable?: string; cause?: unknown } = {},
): MCPConfigError {
  const subject = field === undefined ? '' : `"${field}" `;
  return new MCPConfigError(`config ${context.file}: server "${context.entry}": ${subject}${problem}`, {
    file: context.file,
    entry: context.entry,
    field,
    ...extra,
  });
}

function expand(context: EntryContext, field: string, text: string): string {
  const result = interpolate(text, context.scope);
  if ('value' in result) return result.value;
  const { variable, reason } = result.unresolved;
  throw entryError(context, field, `uses \${${variable}}, which ${reason}`, { variable });
}

/** A string field, interpolated; undefined when absent. */
export function readString(
  context: EntryContext,
  raw: Record<string, unknown>,
  field: string,
): string | undefined {
  const value = raw[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw entryError(context, field, 'must be a string');
  return expand(context, field, value);
}

/** A string field that must not interpolate to an empty string. */
export function readNonEmptyString(
  context: EntryContext,
  raw: Record<string, unknown>,
  field: string,
): string | undefined {
  const value = readString(context, raw, field);
  if (value === '') throw entryError(context, field, 'must not be empty');
  return value;
}

/** An array of strings, each interpolated unless `literal`; undefined when absent. */
export function readStringArray(
  context: EntryContext,
  raw: Record<string, unknown>,
  field: string,
  literal = false,
): string[] | undefined {
  const value = raw[field];
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw entryError(context, field, 'must be an array of strings');
  return value.map((item: unknown, index) => {
    const path = `${field}[${index}]`;
    if (typeof item !== 'string') throw entryError(context, path, 'must be a string');
    return literal ? item : expand(context, path, item);
  });
}

/** An object of string values (`env`, `headers`), each interpolated; undefined when absent. */
export function readStringRecord(
  context: EntryContext,
  raw: Record<string, unknown>,
  field: string,
): Record<string, string> | undefined {
  const value = raw[field];
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw entryError(context, field, 'must be an object of strings');
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(value)) {
    const path = `${field}.${key}`;
    if (typeof item !== 'string') throw entryError(context, path, 'must be a string');
    out[key] = expand(context, path, item);
  }
  return out;
}

/** A whole number of at least 1 (`maxConcurrentCalls`); undefined when absent. Never interpolated. */
export function readPositiveInteger(
  context: EntryContext,
  raw: Record<string, unknown>,
  field: string,
): number | undefined {
  const value = raw[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw entryError(context, field, 'must be a whole number of at least 1');
  return value;
}

/** `true` or `false` (`dpop`); undefined when absent. Never interpolated. */
export function readBoolean(
  context: EntryContext,
  raw: Record<string, unknown>,
  field: string,
): boolean | undefined {
  const value = raw[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw entryError(context, field, 'must be true or false');
  return value;
}
