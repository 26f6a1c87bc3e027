import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../src/core/json.js';
import { normalizeSchema, SchemaConversionError, type SchemaDialect } from '../../src/providers/schema.js';

const table: { name: string; dialect: SchemaDialect; input: JsonSchema; output: JsonSchema }[] = [
  {
    name: 'adds type and properties to an empty schema',
    dialect: 'anthropic',
    input: {},
    output: { type: 'object', properties: {} },
  },
  {
    name: 'drops $schema and $id at the root',
    dialect: 'openai',
    input: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'x',
      type: 'object',
      properties: {},
    },
    output: { type: 'object', properties: {} },
  },
  {
    name: 'inlines $defs references and drops $defs',
    dialect: 'openai',
    input: {
      type: 'object',
      properties: { where: { $ref: '#/$defs/Place', description: 'target' } },
      $defs: { Place: { type: 'object', properties: { city: { type: 'string' } } } },
    },
    output: {
      type: 'object',
      properties: {
        where: { type: 'object', properties: { city: { type: 'string' } }, description: 'target' },
      },
    },
  },
  {
    name: 'inlines draft-07 definitions',
    dialect: 'anthropic',
    input: {
      type: 'object',
      properties: { n: { $ref: '#/definitions/N' } },
      definitions: { N: { type: 'integer' } },
    },
    output: { type: 'object', properties: { n: { type: 'integer' } } },
  },
  {
    name: 'stops a recursive reference at the point of recursion',
    dialect: 'openai',
    input: {
      type: 'object',
      properties: { tree: { $ref: '#/$defs/Node' } },
      $defs: {
        Node: {
          type: 'object',
          properties: { children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
        },
      },
    },
    output: {
      type: 'object',
      properties: { tree: { type: 'object', properties: { children: { type: 'array', items: {} } } } },
    },
  },
  {
    name: 'merges a root oneOf of objects, requiring only what every branch requires',
    dialect: 'anthropic',
    input: {
      oneOf: [
        {
          type: 'object',
          properties: { id: { type: 'string' }, name: { type: 'string' } },
          required: ['id', 'name'],
        },
        {
          type: 'object',
          properties: { id: { type: 'string' }, email: { type: 'string' } },
          required: ['id'],
        },
      ],
    },
    output: {
      type: 'object',
      properties: { id: { type: 'string' }, name: { type: 'string' }, email: { type: 'string' } },
      required: ['id'],
    },
  },
  {
    name: 'merges a root allOf, requiring everything any branch requires',
    dialect: 'openai',
    input: {
      allOf: [
        { properties: { a: { type: 'string' } }, required: ['a'] },
        { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] },
      ],
    },
    output: {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
  },
  {
    name: 'rewrites nested oneOf to anyOf for OpenAI',
    dialect: 'openai',
    input: { type: 'object', properties: { v: { oneOf: [{ type: 'string' }, { type: 'number' }] } } },
    output: { type: 'object', properties: { v: { anyOf: [{ type: 'string' }, { type: 'number' }] } } },
  },
  {
    name: 'keeps nested oneOf for Anthropic',
    dialect: 'anthropic',
    input: { type: 'object', properties: { v: { oneOf: [{ type: 'string' }, { type: 'number' }] } } },
    output: { type: 'object', properties: { v: { oneOf: [{ type: 'string' }, { type: 'number' }] } } },
  },
  {
    name: 'accepts a root type list that includes object',
    dialect: 'openai',
    input: { type: ['object', 'null'], properties: { a: { type: 'string' } } },
    output: { type: 'object', properties: { a: { type: 'string' } } },
  },
  {
    name: 'copies data keywords verbatim, even when they look like schemas',
    dialect: 'openai',
    input: {
      type: 'object',
      properties: { mode: { enum: [{ $ref: '#/nope' }], default: { oneOf: 1 }, const: { $ref: 'x' } } },
    },
    output: {
      type: 'object',
      properties: { mode: { enum: [{ $ref: '#/nope' }], default: { oneOf: 1 }, const: { $ref: 'x' } } },
    },
  },
  {
    name: 'treats a property named $ref as a property, not a reference',
    dialect: 'anthropic',
    input: { type: 'object', properties: { $ref: { type: 'string' } } },
    output: { type: 'object', properties: { $ref: { type: 'string' } } },
  },
  {
    name: 'adds items to array schemas without them, at every depth (openai)',
    dialect: 'openai',
    input: {
      type: 'object',
      properties: {
        paths: { type: 'array', description: 'files' },
        rows: { type: 'array', items: { type: ['array', 'null'] } },
        either: { anyOf: [{ type: 'array' }, { type: 'string' }] },
      },
    },
    output: {
      type: 'object',
      properties: {
        paths: { type: 'array', description: 'files', items: {} },
        rows: { type: 'array', items: { type: ['array', 'null'], items: {} } },
        either: { anyOf: [{ type: 'array', items: {} }, { type: 'string' }] },
      },
    },
  },
  {
    name: 'leaves array schemas without items alone for anthropic',
    dialect: 'anthropic',
    input: { type: 'object', properties: { paths: { type: 'array' } } },
    output: { type: 'object', properties: { paths: { type: 'array' } } },
  },
  {
    name: 'rewrites draft-04/07 tuples and boolean exclusive bounds in 2020-12 form, at every depth',
    dialect: 'anthropic',
    input: {
      type: 'object',
      properties: {
        point: {
          type: 'array',
          items: [{ type: 'number', minimum: 0, exclusiveMinimum: true }, { type: 'number' }],
          additionalItems: false,
        },
        nested: {
          type: 'object',
          properties: {
            ratio: {
              type: 'number',
              maximum: 1,
              exclusiveMaximum: false,
              minimum: 0,
              exclusiveMinimum: true,
            },
          },
        },
      },
    },
    output: {
      type: 'object',
      properties: {
        point: {
          type: 'array',
          prefixItems: [{ type: 'number', exclusiveMinimum: 0 }, { type: 'number' }],
          items: false,
        },
        nested: {
          type: 'object',
          properties: { ratio: { type: 'number', maximum: 1, exclusiveMinimum: 0 } },
        },
      },
    },
  },
  {
    name: 'gives an inlined tuple items for openai',
    dialect: 'openai',
    input: {
      type: 'object',
      properties: { pair: { $ref: '#/definitions/Pair' } },
      definitions: { Pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] } },
    },
    output: {
      type: 'object',
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: {} },
      },
    },
  },
];

describe('schema normalisation', () => {
  for (const row of table) {
    it(`${row.name} (${row.dialect})`, () => {
      const before = structuredClone(row.input);
      expect(normalizeSchema(row.input, row.dialect)).toEqual(row.output);
      expect(row.input).toEqual(before);
    });
  }

  const failures: { name: string; input: JsonSchema; message: string }[] = [
    {
      name: 'an external $ref',
      input: { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } },
      message:
        'cannot resolve $ref "https://example.com/a.json": only local references (#/...) are supported',
    },
    {
      name: 'a $ref to nothing',
      input: { type: 'object', properties: { a: { $ref: '#/$defs/Missing' } } },
      message: '$ref "#/$defs/Missing" points at nothing',
    },
    {
      name: 'a scalar root',
      input: { type: 'string' },
      message: 'root schema has type "string"; tools take an object',
    },
    {
      name: 'a root union with a scalar branch',
      input: { anyOf: [{ type: 'object', properties: {} }, { type: 'string' }] },
      message: 'root anyOf has a branch that is not an object schema',
    },
    {
      name: 'a "required" that is a string (a server sent "required": "a")',
      input: {
        type: 'object',
        properties: { a: { type: 'string' } },
        required: 'a',
      } as unknown as JsonSchema,
      message: '"required" at #/ must be an array of strings (got string)',
    },
    {
      name: 'a nested "type" that is a number',
      input: {
        type: 'object',
        properties: { a: { type: 'array', items: { type: 7 } } },
      } as unknown as JsonSchema,
      message: '"type" at #/properties/a/items must be a string or an array of strings (got number)',
    },
    {
      name: 'a "properties" entry that is not a schema',
      input: { type: 'object', properties: { a: 'string' } } as unknown as JsonSchema,
      message: '"properties" at #/ must be an object of schemas ("a" is not one) (got string)',
    },
    {
      name: 'a "properties" that is an array',
      input: { type: 'object', properties: [] } as unknown as JsonSchema,
      message: '"properties" at #/ must be an object (got an array)',
    },
  ];
  for (const row of failures) {
    it(`refuses ${row.name}`, () => {
      expect(() => normalizeSchema(row.input, 'openai')).toThrow(new SchemaConversionError(row.message));
    });
  }
});
