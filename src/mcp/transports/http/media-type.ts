/** The media type of a `Content-Type` header value: what the Streamable HTTP transport branches on. */
import { oneHeaderValue } from '../../protocol/header-value.js';

/** The media type without parameters, lower-cased; '' when absent. */
export function mediaType(contentType: string | null | undefined): string {
  // The two answers a server gives on every call, as servers usually spell them: no split, no allocation.
  if (contentType === 'application/json' || contentType === 'text/event-stream') return contentType;
  // A repeated field (`application/json, application/json`) reads as one (header-value.ts).
  return (oneHeaderValue(contentType) ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}
