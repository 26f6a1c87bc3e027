/**
 * The text of a configuration file to a value. VS Code writes `mcp.json` as JSONC (comments, trailing
 * commas); Claude Desktop and Cursor write plain JSON, which JSONC includes. Parsed by `jsonc-parser`.
 */
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
import { MCPConfigError } from '../protocol/errors.js';

/**
 * Parses a configuration file's text (JSON or JSONC). A leading byte-order mark is ignored.
 * @throws MCPConfigError `config <source>: is not valid JSON: <error> at line L, column C`.
 */
export function parseConfigText(text: string, source: string): unknown {
  const clean = text.replace(/^\uFEFF/, '');
  const errors: ParseError[] = [];
  const value: unknown = parse(clean, errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first === undefined) return value;
  const lines = clean.slice(0, first.offset).split('\n');
  const where = `line ${lines.length}, column ${(lines.at(-1) ?? '').length + 1}`;
  throw new MCPConfigError(
    `config ${source}: is not valid JSON: ${printParseErrorCode(first.error)} at ${where}`,
    {
      file: source,
    },
  );
}
