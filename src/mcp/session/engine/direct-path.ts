/**
 * Whether a session's requests take agentwire's direct path (wire/calls.ts: one record per request, routed
 * by the wire under the `aw-` id prefix) rather than the SDK's request funnel, and opening that path on the
 * wire. 2025-era sessions always take it; a 2026-07-28 session too, unless the funnel is asked for
 * (`SessionEra.modernCalls: 'funnel'`, the reference the parity tests and the bench compare against), and
 * then its requests carry the envelope of the revision (modern-calls.ts).
 */
import type { Client } from '@modelcontextprotocol/client';
import type { Implementation } from '../../protocol/types.js';
import { DIRECT_ID_PREFIX, DirectRequests } from '../wire/calls.js';
import type { Wire } from '../wire/wire.js';
import { modernWire } from './modern-calls.js';

/** Opens the direct path of a session on `wire`, or returns `undefined` when its calls take the funnel. */
export function openDirectPath(
  sdk: Client,
  wire: Wire,
  modernCalls: 'direct' | 'funnel' | undefined,
  clientInfo: Implementation,
  declared: Record<string, object>,
): DirectRequests | undefined {
  const modern = sdk.getProtocolEra() !== 'legacy';
  if (modern && modernCalls === 'funnel') return undefined;
  const direct = new DirectRequests(
    wire,
    (error) => sdk.onerror?.(error),
    modern ? modernWire(sdk, clientInfo, declared, wire.transport) : undefined,
  );
  wire.claim(DIRECT_ID_PREFIX, direct);
  return direct;
}
