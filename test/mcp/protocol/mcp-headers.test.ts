/**
 * SEP-2243 request metadata headers (MCP spec 2026-07-28, "Transports > Streamable HTTP > Request
 * Metadata"): the spec's own examples, exactly.
 */
import { describe, expect, it } from 'vitest';
import {
  encodeMcpHeaderValue,
  mcpHeaderString,
  mcpParamHeaders,
  modernEnvelopeVersion,
  scanMcpHeaderDeclarations,
  standardMcpHeaders,
} from '../../../src/mcp/protocol/mcp-headers.js';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'ExampleClient', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The spec's `execute_sql` example tool ("Custom Headers from Tool Parameters > Example tool definition"). */
const EXECUTE_SQL = {
  type: 'object',
  properties: {
    region: { type: 'string', description: 'The region to execute the query in', 'x-mcp-header': 'Region' },
    query: { type: 'string', description: 'The SQL query to execute' },
  },
  required: ['region', 'query'],
};

describe('encodeMcpHeaderValue: the spec\'s "Encoding examples" table', () => {
  it.each([
    ['us-west1', 'us-west1'],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
  ])('%j → %s', (value, encoded) => {
    expect(encodeMcpHeaderValue(value)).toBe(encoded);
  });

  it('encodes the empty string, leading or trailing tabs, control characters; keeps interior tabs and spaces', () => {
    expect(encodeMcpHeaderValue('')).toBe('=?base64??=');
    expect(encodeMcpHeaderValue('\tx')).toBe('=?base64?CXg=?=');
    expect(encodeMcpHeaderValue('a\rb')).toBe('=?base64?YQ1i?=');
    expect(encodeMcpHeaderValue('a\u007fb')).toBe('=?base64?YX9i?=');
    expect(encodeMcpHeaderValue('a\tb c')).toBe('a\tb c');
    expect(encodeMcpHeaderValue('=?base64?x')).toBe('=?base64?x');
    expect(encodeMcpHeaderValue('file:///projects/myapp/config.json')).toBe(
      'file:///projects/myapp/config.json',
    );
  });
});

describe('mcpHeaderString: the type conversion', () => {
  it('strings as-is, integers in decimal, booleans lowercase', () => {
    expect(mcpHeaderString('x')).toBe('x');
    expect(mcpHeaderString(42)).toBe('42');
    expect(mcpHeaderString(-7)).toBe('-7');
    expect(mcpHeaderString(true)).toBe('true');
    expect(mcpHeaderString(false)).toBe('false');
  });

  it('drops null, absent, non-primitives, non-integers and unsafe integers', () => {
    expect(mcpHeaderString(null)).toBeUndefined();
    expect(mcpHeaderString(undefined)).toBeUndefined();
    expect(mcpHeaderString({ a: 1 })).toBeUndefined();
    expect(mcpHeaderString([1])).toBeUndefined();
    expect(mcpHeaderString(1.5)).toBeUndefined();
    expect(mcpHeaderString(Number.NaN)).toBeUndefined();
    expect(mcpHeaderString(2 ** 53)).toBeUndefined();
    expect(mcpHeaderString(-(2 ** 53))).toBeUndefined();
    expect(mcpHeaderString(2 ** 53 - 1)).toBe('9007199254740991');
    expect(mcpHeaderString(-(2 ** 53) + 1)).toBe('-9007199254740991');
  });
});

describe('scanMcpHeaderDeclarations', () => {
  it("finds the spec example's declaration", () => {
    expect(scanMcpHeaderDeclarations(EXECUTE_SQL)).toEqual({
      valid: true,
      declarations: [{ path: ['region'], name: 'Region', type: 'string' }],
    });
  });

  it('accepts nested properties chains, integer and boolean, and schemas without declarations', () => {
    const schema = {
      type: 'object',
      properties: {
        target: {
          type: 'object',
          properties: { zone: { type: 'integer', 'x-mcp-header': 'Zone' } },
        },
        dry: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
      },
    };
    expect(scanMcpHeaderDeclarations(schema)).toEqual({
      valid: true,
      declarations: [
        { path: ['target', 'zone'], name: 'Zone', type: 'integer' },
        { path: ['dry'], name: 'Dry-Run', type: 'boolean' },
      ],
    });
    expect(scanMcpHeaderDeclarations({ type: 'object' })).toEqual({ valid: true, declarations: [] });
    expect(scanMcpHeaderDeclarations(undefined)).toEqual({ valid: true, declarations: [] });
  });

  const property = (schema: Record<string, unknown>) => ({ type: 'object', properties: { p: schema } });

  it.each([
    [
      'a number type',
      property({ type: 'number', 'x-mcp-header': 'P' }),
      'x-mcp-header "P" is on property "p" of type number; only string, integer and boolean are allowed',
    ],
    [
      'an object type',
      property({ type: 'object', 'x-mcp-header': 'P' }),
      'x-mcp-header "P" is on property "p" of type object; only string, integer and boolean are allowed',
    ],
    [
      'a list of types',
      property({ type: ['string', 'null'], 'x-mcp-header': 'P' }),
      'x-mcp-header "P" is on property "p" of type ["string","null"]; only string, integer and boolean are allowed',
    ],
    [
      'no type (a bare $ref)',
      property({ $ref: '#/$defs/P', 'x-mcp-header': 'P' }),
      'x-mcp-header "P" is on property "p" of type null; only string, integer and boolean are allowed',
    ],
    [
      'an empty name',
      property({ type: 'string', 'x-mcp-header': '' }),
      'x-mcp-header of property "p" must be a non-empty string',
    ],
    [
      'a non-string name',
      property({ type: 'string', 'x-mcp-header': 7 }),
      'x-mcp-header of property "p" must be a non-empty string',
    ],
    [
      'a name with a space',
      property({ type: 'string', 'x-mcp-header': 'My Region' }),
      'x-mcp-header "My Region" of property "p" is not an HTTP field-name token (RFC 9110)',
    ],
    [
      'a name with CR LF',
      property({ type: 'string', 'x-mcp-header': 'A\r\nB' }),
      'x-mcp-header "A\\r\\nB" of property "p" is not an HTTP field-name token (RFC 9110)',
    ],
    [
      'a name with a delimiter',
      property({ type: 'string', 'x-mcp-header': 'a:b' }),
      'x-mcp-header "a:b" of property "p" is not an HTTP field-name token (RFC 9110)',
    ],
    [
      'a non-ASCII name',
      property({ type: 'string', 'x-mcp-header': 'Régión' }),
      'x-mcp-header "Régión" of property "p" is not an HTTP field-name token (RFC 9110)',
    ],
    [
      'the schema root',
      { type: 'string', 'x-mcp-header': 'Root' },
      'x-mcp-header at the schema root is not on a property reached through "properties" keys only',
    ],
    [
      'a path through items',
      property({ type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } }),
      'x-mcp-header at property "p.items" is not on a property reached through "properties" keys only',
    ],
    [
      'a path through items.properties',
      property({
        type: 'array',
        items: { type: 'object', properties: { q: { type: 'string', 'x-mcp-header': 'Q' } } },
      }),
      'x-mcp-header at property "p.items.q" is not on a property reached through "properties" keys only',
    ],
    [
      'a path through oneOf',
      { type: 'object', oneOf: [{ properties: { q: { type: 'string', 'x-mcp-header': 'Q' } } }] },
      'x-mcp-header at property "oneOf.q" is not on a property reached through "properties" keys only',
    ],
    [
      'a path through anyOf, allOf, not',
      property({ anyOf: [{ allOf: [{ not: { type: 'string', 'x-mcp-header': 'Q' } }] }] }),
      'x-mcp-header at property "p.anyOf.allOf.not" is not on a property reached through "properties" keys only',
    ],
    [
      'a path through if/then/else',
      // JSON Schema's `then` keyword, built from a string: a literal `then` key makes the object a thenable.
      {
        type: 'object',
        if: {},
        ['th' + 'en']: { properties: { q: { type: 'string', 'x-mcp-header': 'Q' } } },
      },
      'x-mcp-header at property "then.q" is not on a property reached through "properties" keys only',
    ],
    [
      'a $ref target in $defs',
      {
        type: 'object',
        properties: { p: { $ref: '#/$defs/P' } },
        $defs: { P: { type: 'string', 'x-mcp-header': 'P' } },
      },
      'x-mcp-header at property "$defs" is not on a property reached through "properties" keys only',
    ],
    [
      'additionalProperties',
      { type: 'object', additionalProperties: { type: 'string', 'x-mcp-header': 'Extra' } },
      'x-mcp-header at property "additionalProperties" is not on a property reached through "properties" keys only',
    ],
  ])('rejects %s', (_what, schema, reason) => {
    expect(scanMcpHeaderDeclarations(schema)).toEqual({ valid: false, reason });
  });

  it('rejects names that differ only in case', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'string', 'x-mcp-header': 'Region' },
        b: { type: 'object', properties: { c: { type: 'string', 'x-mcp-header': 'REGION' } } },
      },
    };
    expect(scanMcpHeaderDeclarations(schema)).toEqual({
      valid: false,
      reason: 'x-mcp-header "REGION" of property "b.c" duplicates "Region" (names are case-insensitive)',
    });
  });

  it('reads a property named like a keyword as a property', () => {
    const schema = { type: 'object', properties: { items: { type: 'string', 'x-mcp-header': 'Items' } } };
    expect(scanMcpHeaderDeclarations(schema)).toEqual({
      valid: true,
      declarations: [{ path: ['items'], name: 'Items', type: 'string' }],
    });
  });
});

describe('mcpParamHeaders', () => {
  const scan = scanMcpHeaderDeclarations({
    type: 'object',
    properties: {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      greeting: { type: 'string', 'x-mcp-header': 'Greeting' },
      limit: { type: 'integer', 'x-mcp-header': 'Limit' },
      dry: { type: 'boolean', 'x-mcp-header': 'Dry' },
      target: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
    },
  });
  const declarations = scan.valid ? scan.declarations : [];

  it("gives the spec example's header", () => {
    const example = scanMcpHeaderDeclarations(EXECUTE_SQL);
    expect(
      mcpParamHeaders(example.valid ? example.declarations : [], {
        region: 'us-west1',
        query: 'SELECT * FROM users',
      }),
    ).toEqual({ 'mcp-param-Region': 'us-west1' });
  });

  it('converts and encodes every value at its exact path', () => {
    expect(
      mcpParamHeaders(declarations, {
        region: 'us-west1',
        greeting: 'Hello, 世界',
        limit: -7,
        dry: false,
        target: { zone: ' padded ' },
      }),
    ).toEqual({
      'mcp-param-Region': 'us-west1',
      'mcp-param-Greeting': '=?base64?SGVsbG8sIOS4lueVjA==?=',
      'mcp-param-Limit': '-7',
      'mcp-param-Dry': 'false',
      'mcp-param-Zone': '=?base64?IHBhZGRlZCA=?=',
    });
  });

  it('omits null, absent and unconvertible values', () => {
    expect(mcpParamHeaders(declarations, { region: null, limit: 2 ** 53, target: 'flat' })).toEqual({});
    expect(mcpParamHeaders(declarations, { limit: 1.5, dry: 'yes', greeting: '' })).toEqual({
      'mcp-param-Dry': 'yes',
      'mcp-param-Greeting': '=?base64??=',
    });
    expect(mcpParamHeaders(declarations, undefined)).toEqual({});
  });
});

describe('standardMcpHeaders', () => {
  it('tools/call: the spec example', () => {
    expect(
      standardMcpHeaders('tools/call', {
        name: 'get_weather',
        arguments: { location: 'Seattle, WA' },
        _meta: ENVELOPE,
      }),
    ).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'get_weather',
    });
  });

  it('resources/read: the spec example', () => {
    expect(
      standardMcpHeaders('resources/read', { uri: 'file:///projects/myapp/config.json', _meta: ENVELOPE }),
    ).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'resources/read',
      'mcp-name': 'file:///projects/myapp/config.json',
    });
  });

  it('prompts/get and tasks/get name, a non-ASCII name encoded, no Mcp-Name for other methods', () => {
    expect(standardMcpHeaders('prompts/get', { name: 'résumé', _meta: ENVELOPE })).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'prompts/get',
      'mcp-name': '=?base64?csOpc3Vtw6k=?=',
    });
    expect(standardMcpHeaders('tasks/get', { taskId: 't-1', _meta: ENVELOPE })?.['mcp-name']).toBe('t-1');
    expect(standardMcpHeaders('tools/list', { name: 'x', _meta: ENVELOPE })).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
    });
    expect(standardMcpHeaders('tools/call', { name: 7, _meta: ENVELOPE })).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
    });
  });

  it('none for a request without a 2026-era envelope', () => {
    expect(standardMcpHeaders('tools/call', { name: 'x' })).toBeUndefined();
    expect(standardMcpHeaders('tools/list', undefined)).toBeUndefined();
    expect(
      standardMcpHeaders('tools/call', {
        name: 'x',
        _meta: { 'io.modelcontextprotocol/protocolVersion': '2025-11-25' },
      }),
    ).toBeUndefined();
    expect(
      modernEnvelopeVersion({ _meta: { 'io.modelcontextprotocol/protocolVersion': '2027-01-01' } }),
    ).toBe('2027-01-01');
  });
});
