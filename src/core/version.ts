import { readFileSync } from 'node:fs';

/** agentwire's package version, read once from its package.json (the same relative path from src/ and dist/). */
export const VERSION: string = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
