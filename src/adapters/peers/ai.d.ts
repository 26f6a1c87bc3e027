/**
 * What `agentwire/ai-sdk` uses of the Vercel AI SDK (`ai` 7), declared here so that agentwire type-checks and
 * builds without the package (`ai` 7 needs Node >= 22, agentwire runs on Node >= 20): tsconfig.json maps `ai`
 * to this file. The built declarations keep importing `ai`, so a user's code is checked against the real
 * package. frameworks/ checks both ends against it: the adapters compiled with the real types
 * (frameworks/tsconfig.json), and these declarations as a sound view of them (frameworks/test/peer-types.ts).
 */

/** A JSON Schema wrapped for the AI SDK (`jsonSchema(schema)`). */
export interface Schema {
  readonly jsonSchema: unknown;
}

/** One part of a tool output of type `content`. */
export type ToolContentPart =
  | { type: 'text'; text: string }
  | { type: 'file'; mediaType: string; data: { type: 'data'; data: string } };

/** What a tool's `toModelOutput` gives the model. */
export type ToolResultOutput =
  | { type: 'text'; value: string }
  | { type: 'content'; value: ToolContentPart[] };

/** A tool as `dynamicTool` makes it (agentwire only hands it on). */
export interface Tool {
  readonly type: 'dynamic';
}

/** The tools of a generation, by name. */
export type ToolSet = Record<string, Tool>;

/** What agentwire passes to `dynamicTool`. */
export interface DynamicToolDefinition {
  description?: string;
  inputSchema: Schema;
  execute: (input: unknown, options: { abortSignal?: AbortSignal | undefined }) => PromiseLike<unknown>;
  toModelOutput?: (options: { output: unknown }) => ToolResultOutput | PromiseLike<ToolResultOutput>;
}

export declare function dynamicTool(tool: DynamicToolDefinition): Tool;

export declare function jsonSchema(schema: Record<string, unknown>): Schema;
