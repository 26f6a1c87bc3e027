/**
 * The declarations of src/adapters/peers/, which the root type-check and build use in place of the
 * frameworks (tsconfig.json maps the packages there), are a sound view of the real packages: each declared
 * function is one the real function can stand for (it takes what agentwire passes and gives what agentwire
 * reads), and what agentwire builds to the declared `MCPServer` is a real one. Checked by tsc only
 * (frameworks/tsconfig.json, `npm run test:frameworks`); nothing here runs.
 */
import type { ToolsInput } from '@mastra/core/agent';
import type * as OpenAIAgents from '@openai/agents-core';
import type * as AI from 'ai';
import type * as DeclaredAI from '../../src/adapters/peers/ai.js';
import type * as DeclaredMastra from '../../src/adapters/peers/mastra-agent.js';
import type * as DeclaredOpenAIAgents from '../../src/adapters/peers/openai-agents-core.js';

/** `Real`, when it can be used wherever `Declared` is expected; a type error otherwise. */
type Fits<Real extends Declared, Declared> = Real;

/**
 * The declared `dynamicTool` with the schema it really receives: the declared `Schema` is an opaque view of
 * what `jsonSchema` returns (the real one carries a private brand), and the real `jsonSchema` is checked below.
 */
type DynamicToolOfRealSchema = (
  tool: Omit<DeclaredAI.DynamicToolDefinition, 'inputSchema'> & { inputSchema: AI.Schema },
) => DeclaredAI.Tool;

export type PeerDeclarationsFit = [
  Fits<typeof AI.dynamicTool, DynamicToolOfRealSchema>,
  Fits<typeof AI.jsonSchema, typeof DeclaredAI.jsonSchema>,
  Fits<ToolsInput, DeclaredMastra.ToolsInput>,
  Fits<DeclaredOpenAIAgents.MCPServer, OpenAIAgents.MCPServer>,
  Fits<OpenAIAgents.MCPCallToolOptions, DeclaredOpenAIAgents.MCPCallToolOptions>,
];
