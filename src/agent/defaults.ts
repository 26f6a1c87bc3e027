/** The agent's defaults that need none of its code (the CLI's help shows them without loading the agent). */

/** Default `AgentOptions.maxTurns`. */
export const DEFAULT_MAX_TURNS = 25;

/** Default of `AgentOptions.toolSearchThreshold`: more tools than this are found through `search_tools`. */
export const DEFAULT_TOOL_SEARCH_THRESHOLD = 64;
