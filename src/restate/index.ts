/**
 * `agentwire/restate`: agent runs that survive a crash and move between machines, on Restate (a
 * durable-execution server). The worker side is {@link durableAgent}, a Restate virtual object to serve with
 * Restate's SDK; the host side is {@link DurableAgentClient}, over Restate's HTTP ingress. Needs
 * `@restatedev/restate-sdk` (an optional peer dependency of agentwire) installed. See docs/durable-runs.md.
 */
export {
  DurableAgentClient,
  type DurableAgentClientOptions,
  DurableAgentRequestError,
  type StartedRun,
} from './client.js';
export {
  type DurableAgentOptions,
  type DurableRunRequest,
  type DurableRunResult,
  durableAgent,
} from './durable-agent.js';
export type { ModelRetry } from './durable-steps.js';
export type {
  ApprovalRequestedEvent,
  EventPage,
  LoggedEvent,
  PendingApproval,
  SequencedEvent,
} from './events.js';
