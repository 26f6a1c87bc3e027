// Workload 6: the agent loop's own cost per turn. A fake model answers instantly, in-process (no HTTP, no
// tokens): each turn it calls the fast fixture's `echo` once, until the last turn ends the run. The same
// script is run by agentwire's `Agent` and by the floor: a hand-written loop that streams the same fake
// model and calls `client.callTool` directly. Overhead per turn = (agent − floor) / turns.
import { fastStdio } from '../lib/servers.mjs';
import { median, rotate } from '../lib/stats.mjs';

/** A model that calls `echo` on every turn but the last; no awaits beyond the async iterator itself. */
export function fakeModel(turns, toolName) {
  return {
    provider: 'fake',
    id: 'instant',
    normalizeToolSchema: (schema) => schema,
    async *stream(request) {
      const done = request.messages.filter((m) => m.role === 'tool').length;
      if (done + 1 >= turns) {
        yield {
          type: 'response',
          message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
          stopReason: 'end_turn',
        };
        return;
      }
      yield {
        type: 'response',
        message: {
          role: 'assistant',
          content: [
            {
              type: 'tool_call',
              id: `call_${done}`,
              name: toolName,
              arguments: `{"message":"turn ${done}"}`,
            },
          ],
        },
        stopReason: 'tool_use',
      };
    },
  };
}

/** The floor: the least a loop must do per turn (stream the model, run the tool, append both messages). */
async function handLoop(model, client, turns) {
  const messages = [{ role: 'user', content: 'go' }];
  for (let turn = 0; turn < turns; turn++) {
    let response;
    for await (const event of model.stream({ messages, tools: [] }))
      if (event.type === 'response') response = event;
    messages.push(response.message);
    if (response.stopReason !== 'tool_use') return;
    const results = [];
    for (const part of response.message.content) {
      if (part.type !== 'tool_call') continue;
      const result = await client.callTool(part.name, JSON.parse(part.arguments));
      results.push({ toolCallId: part.id, name: part.name, content: result.content[0].text, isError: false });
    }
    messages.push({ role: 'tool', results });
  }
}

/**
 * What workloads 6 and 13 share: the built `Agent` and a client connected to the fast fixture over stdio, and
 * `agentRun(turns)`, one agent run of `turns` turns (the fake model calling `echo`), checked to take exactly
 * that many. Resolves to `{ error }` when the agent is not built. The caller disconnects `client`.
 */
export async function connectAgentLoop() {
  let Agent;
  try {
    ({ Agent } = await import('../../dist/agent/index.js'));
  } catch (error) {
    return { error: `Agent is not built: ${error?.message ?? error}` };
  }
  const { MCPClient } = await import('../../dist/index.js');
  const cfg = fastStdio();
  const client = MCPClient.fromStdio({ command: cfg.command, args: cfg.args });
  await client.connect();
  const agentRun = async (turns) => {
    const agent = new Agent({
      model: fakeModel(turns, 'echo'),
      tools: client.getTools(),
      maxTurns: turns + 1,
    });
    const result = await agent.execute('go');
    if (result.turns !== turns) throw new Error(`the agent took ${result.turns} turns, expected ${turns}`);
  };
  return { client, agentRun };
}

/** Runs workload 6; `counts` = { turns, runs }. Resolves to `{ error }` when the agent is not built. */
export async function runAgentLoop({ turns, runs }) {
  const loop = await connectAgentLoop();
  if (loop.error !== undefined) return { error: loop.error };
  const { client, agentRun } = loop;
  const samples = { agent: [], floor: [] };
  try {
    const floorRun = () => handLoop(fakeModel(turns, 'echo'), client, turns);
    const kinds = [
      ['agent', () => agentRun(turns)],
      ['floor', floorRun],
    ];
    for (let r = 0; r < runs + 1; r++) {
      for (const [kind, run] of rotate(kinds, r)) {
        const t = performance.now();
        await run();
        // Run 0 is a warm-up.
        if (r > 0) samples[kind].push(((performance.now() - t) * 1000) / turns);
      }
    }
  } finally {
    await client.disconnect();
  }
  const agentUs = median(samples.agent);
  const floorUs = median(samples.floor);
  return {
    turns,
    runs,
    agentPerTurnUs: agentUs,
    floorPerTurnUs: floorUs,
    overheadPerTurnUs: agentUs - floorUs,
  };
}
