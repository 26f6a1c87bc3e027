/**
 * Checks a tool result's `structuredContent` against the tool's declared `outputSchema` (MCP spec
 * 2025-11-25, "Tools > Output Schema": a server that declares one MUST return conforming structured
 * results; clients SHOULD validate them).
 *
 * Choice: a mismatch is the tool's failure, not the connection's. It is reported to the model as a tool
 * error naming the mismatch (an `MCPToolError` from `execute`), so the model can react, and the raw result
 * from `callTool()` is left exactly as the server sent it. The SDK instead throws a protocol exception.
 * Validation uses the SDK's Ajv-backed JSON Schema validator; each schema is compiled once, on first use.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import type { JsonSchema } from '../../core/json.js';
import type { CallToolResult } from '../protocol/types.js';

let validatorFactory: AjvJsonSchemaValidator | undefined;
const compiled = new WeakMap<JsonSchema, (value: unknown) => string | undefined>();

function compile(schema: JsonSchema): (value: unknown) => string | undefined {
  let check = compiled.get(schema);
  if (check) return check;
  validatorFactory ??= new AjvJsonSchemaValidator();
  try {
    const validate = validatorFactory.getValidator<unknown>(
      schema as Parameters<AjvJsonSchemaValidator['getValidator']>[0],
    );
    check = (value) => {
      const outcome = validate(value);
      return outcome.valid ? undefined : outcome.errorMessage;
    };
  } catch {
    // A schema the validator cannot compile says nothing about the result; do not fail calls over it.
    check = () => undefined;
  }
  compiled.set(schema, check);
  return check;
}

/**
 * Why `result` does not satisfy `outputSchema`, or `undefined` when it does (or is an error result, which
 * carries no structured output).
 */
export function outputSchemaMismatch(
  outputSchema: JsonSchema | undefined,
  result: CallToolResult,
): string | undefined {
  if (outputSchema === undefined || result.isError === true) return undefined;
  if (result.structuredContent === undefined)
    return 'the tool declares an outputSchema but returned no structuredContent';
  const problem = compile(outputSchema)(result.structuredContent);
  return problem === undefined
    ? undefined
    : `structuredContent does not match the tool's outputSchema: ${problem}`;
}
