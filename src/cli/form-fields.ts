/**
 * The fields of a form elicitation as the CLI asks them, one at a time (MCP spec 2025-11-25, "Client >
 * Elicitation > Requested Schema": a flat object of primitive properties: string (with `format` email, uri,
 * date, date-time, and length bounds), number and integer (with bounds), boolean, single-select enums (`enum`,
 * `oneOf` of titled `const`s, the legacy `enumNames`) and multi-select arrays of enums (`items.enum`,
 * `items.anyOf` of titled `const`s), each with an optional `title`, `description` and `default`). Pure: the
 * question of a field, and the value of an answer or why it is refused.
 */
import { isRecord } from '../core/json.js';

/** One choice of an enum field: the value sent, and the title shown. */
export interface FieldChoice {
  value: string;
  title: string;
}

/** One field of the form, read from its schema property. */
export interface FormField {
  key: string;
  /** `title`, else the property's key. */
  label: string;
  description: string | undefined;
  kind: 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'multi';
  required: boolean;
  /** The `default`, when it has the field's type. */
  default: string | number | boolean | string[] | undefined;
  /** The choices of `enum` and `multi` fields. */
  choices: FieldChoice[];
  schema: Record<string, unknown>;
}

/** A field's value, or why the answer is refused (`error`). */
export type FieldAnswer = { value: string | number | boolean | string[] } | { error: string };

/** The fields of `properties`, in order; `required` names those that must be answered. */
export function formFields(
  properties: Record<string, Record<string, unknown>>,
  required: readonly string[] = [],
): FormField[] {
  return Object.entries(properties).map(([key, schema]) => {
    const kind = kindOf(schema);
    const choices =
      kind === 'multi' ? choicesOf(isRecord(schema.items) ? schema.items : {}) : choicesOf(schema);
    const field: FormField = {
      key,
      label: typeof schema.title === 'string' && schema.title !== '' ? schema.title : key,
      description: typeof schema.description === 'string' ? schema.description : undefined,
      kind,
      required: required.includes(key),
      default: undefined,
      choices,
      schema,
    };
    field.default = defaultOf(field, schema.default);
    return field;
  });
}

function kindOf(schema: Record<string, unknown>): FormField['kind'] {
  if (schema.type === 'array') return 'multi';
  if (Array.isArray(schema.enum) || Array.isArray(schema.oneOf)) return 'enum';
  if (schema.type === 'number' || schema.type === 'integer' || schema.type === 'boolean') return schema.type;
  return 'string';
}

/** The choices of an enum schema: `oneOf` / `anyOf` of `{ const, title }`, or `enum` (titled by `enumNames`). */
function choicesOf(schema: Record<string, unknown>): FieldChoice[] {
  const titled = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
  if (titled.length > 0)
    return titled.filter(isRecord).map((choice) => ({
      value: String(choice.const),
      title: typeof choice.title === 'string' ? choice.title : String(choice.const),
    }));
  const values = Array.isArray(schema.enum) ? schema.enum.map(String) : [];
  const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
  return values.map((value, index) => ({
    value,
    title: typeof names[index] === 'string' ? (names[index] as string) : value,
  }));
}

/** `value` as the field's default, when it is one the field could have been answered with. */
function defaultOf(field: FormField, value: unknown): FormField['default'] {
  if (value === undefined) return undefined;
  const answer = parseAnswer(
    field,
    field.kind === 'multi' && Array.isArray(value) ? value.join(',') : String(value),
  );
  return 'value' in answer ? answer.value : undefined;
}

/**
 * The lines asking `field`: its label, description and hints, with the choices of an enum listed one per
 * line, then the answer prompt `> `.
 */
export function fieldQuestion(field: FormField): string {
  const description = field.description === undefined ? '' : `: ${field.description}`;
  const hints = [field.required ? 'required' : undefined, hintOf(field)].filter((hint) => hint !== undefined);
  const shownDefault = field.default === undefined ? '' : ` [default: ${shown(field, field.default)}]`;
  const head = `${field.label}${description}${hints.length > 0 ? ` (${hints.join(', ')})` : ''}${shownDefault}\n`;
  const choices = field.choices.map((choice, index) => `  ${index + 1}) ${choice.title}\n`).join('');
  return `${head}${choices}> `;
}

function hintOf(field: FormField): string | undefined {
  const { schema } = field;
  switch (field.kind) {
    case 'boolean':
      return 'y/n';
    case 'number':
    case 'integer':
      return [
        field.kind === 'integer' ? 'a whole number' : 'a number',
        rangeOf(schema.minimum, schema.maximum),
      ]
        .filter(Boolean)
        .join(' ');
    case 'enum':
      return `one of 1-${field.choices.length}`;
    case 'multi': {
      const bounds = rangeOf(schema.minItems, schema.maxItems);
      return `numbers separated by commas${bounds === '' ? '' : `, ${bounds.replace('from', 'choose')}`}`;
    }
    default: {
      const format = typeof schema.format === 'string' ? FORMATS[schema.format]?.hint : undefined;
      const length = rangeOf(schema.minLength, schema.maxLength);
      return (
        [format, length === '' ? undefined : `${length} characters`].filter(Boolean).join(', ') || undefined
      );
    }
  }
}

/** `from 1 to 100`, `at least 1`, `at most 3`, or `''`. */
function rangeOf(min: unknown, max: unknown): string {
  const low = typeof min === 'number' ? min : undefined;
  const high = typeof max === 'number' ? max : undefined;
  if (low !== undefined && high !== undefined) return `from ${low} to ${high}`;
  if (low !== undefined) return `at least ${low}`;
  if (high !== undefined) return `at most ${high}`;
  return '';
}

/** A value as the field shows it: a choice by its title, a boolean as y / n. */
function shown(field: FormField, value: NonNullable<FormField['default']>): string {
  const title = (one: string) => field.choices.find((choice) => choice.value === one)?.title ?? one;
  if (Array.isArray(value)) return value.map(title).join(', ');
  if (typeof value === 'boolean') return value ? 'y' : 'n';
  return field.kind === 'enum' ? title(String(value)) : String(value);
}

/** The string formats of the requested schema, each with its hint and check. */
const FORMATS: Record<string, { hint: string; valid: (text: string) => boolean }> = {
  email: { hint: 'an email address', valid: (text) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text) },
  uri: { hint: 'a URI', valid: (text) => URL.canParse(text) },
  date: {
    hint: 'a date, YYYY-MM-DD',
    valid: (text) => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)),
  },
  'date-time': {
    hint: 'a date and time, e.g. 2025-01-31T09:00:00Z',
    valid: (text) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(text) && !Number.isNaN(Date.parse(text)),
  },
};

/**
 * The value of `answer` (trimmed, non-empty) for `field`, or why it is refused. An enum takes a choice's
 * number, value or title; a multi-select, several of those separated by commas.
 */
export function parseAnswer(field: FormField, answer: string): FieldAnswer {
  const text = answer.trim();
  const { schema } = field;
  switch (field.kind) {
    case 'boolean':
      if (/^(y|yes|true)$/i.test(text)) return { value: true };
      if (/^(n|no|false)$/i.test(text)) return { value: false };
      return { error: 'answer y or n' };
    case 'number':
    case 'integer': {
      const value = Number(text);
      if (text === '' || !Number.isFinite(value)) return { error: `"${text}" is not a number` };
      if (field.kind === 'integer' && !Number.isInteger(value))
        return { error: `"${text}" is not a whole number` };
      return withinRange(value, schema.minimum, schema.maximum, 'the number') ?? { value };
    }
    case 'enum': {
      const choice = pick(field.choices, text);
      return choice === undefined
        ? { error: `choose a number from 1 to ${field.choices.length}` }
        : { value: choice };
    }
    case 'multi': {
      const words = text
        .split(',')
        .map((word) => word.trim())
        .filter((word) => word !== '');
      const values = words.map((word) => pick(field.choices, word));
      const unknown = words.find((_, index) => values[index] === undefined);
      if (unknown !== undefined) return { error: `"${unknown}" is not one of 1-${field.choices.length}` };
      const chosen = [...new Set(values as string[])];
      return (
        withinRange(chosen.length, schema.minItems, schema.maxItems, 'the number of choices') ?? {
          value: chosen,
        }
      );
    }
    default: {
      const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
      if (format && !format.valid(text)) return { error: `"${text}" is not ${format.hint}` };
      const length = withinRange([...text].length, schema.minLength, schema.maxLength, 'the length');
      return length ?? { value: text };
    }
  }
}

/** The refusal of `value` outside `[min, max]`, or undefined. */
function withinRange(value: number, min: unknown, max: unknown, what: string): { error: string } | undefined {
  if (typeof min === 'number' && value < min) return { error: `${what} must be at least ${min}` };
  if (typeof max === 'number' && value > max) return { error: `${what} must be at most ${max}` };
  return undefined;
}

/** The value of the choice `word` names: its number (from 1), its value, or its title (any case). */
function pick(choices: readonly FieldChoice[], word: string): string | undefined {
  if (/^\d+$/.test(word)) return choices[Number(word) - 1]?.value;
  const lower = word.toLowerCase();
  return choices.find((choice) => choice.value === word || choice.title.toLowerCase() === lower)?.value;
}
