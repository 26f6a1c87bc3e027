/** The agent's defaults that need none of its code (the CLI's help shows them without loading the agent). */

/** Default `AgentOptions.maxTurns`. */
export const DEFAULT_MAX_TURNS = 25;
