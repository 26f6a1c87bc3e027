/** The media type of a `Content-Type` header value: what the Streamable HTTP transport branches on. */

/** The media type without parameters, lower-cased; '' when absent. */
export function mediaType(contentType: string | null | undefined): string {
  // The two answers a server gives on every call, as servers usually spell them: no split, no allocation.
  if (contentType === 'application/json' || contentType === 'text/event-stream') return contentType;
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}
