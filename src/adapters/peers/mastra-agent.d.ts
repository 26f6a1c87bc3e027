/**
 * What `agentwire/mastra` uses of Mastra (`@mastra/core/agent`, 1.71), declared here so that agentwire
 * type-checks and builds without the package (it needs Node >= 22): tsconfig.json maps `@mastra/core/agent`
 * to this file. The built declarations keep importing the package, so a user's code is checked against the
 * real one; frameworks/ compiles the adapter against it (frameworks/tsconfig.json, frameworks/test/peer-types.ts).
 */

/** The tools of a Mastra agent, by name (`new Agent({ tools })`). */
export type ToolsInput = Record<string, unknown>;
