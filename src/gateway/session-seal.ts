/**
 * The sealed `Mcp-Session-Id` of a 2025-era HTTP session (MCP spec 2025-11-25, "Transports > Streamable
 * HTTP > Session Management"): everything a gateway process needs to serve the session, encrypted and
 * authenticated with AES-256-GCM under a key every process of one gateway shares, so that any process
 * serves any session without a store and without sticky routing. A process that cannot open an id (another
 * gateway's, tampered with, expired) answers 404, and the client starts a new session as the spec says.
 *
 * What is sealed: the revision negotiated at `initialize`, the client's capabilities and `clientInfo` (a
 * process seeing the session for the first time replays the handshake from them), the time it was made, a
 * random session key (the name other processes know the session by) and a digest of the caller it belongs
 * to (a session presented with another caller's credentials is not found). Nothing secret is in it, but it
 * is encrypted all the same, so that a client can neither read nor forge what the gateway keeps there.
 *
 * Wire form: `v1.` + base64url(12-byte IV ‖ ciphertext ‖ 16-byte tag); the additional data is `v1`. The key
 * is HKDF-SHA256 of the configured secret (any string of at least 32 characters), so a passphrase works.
 */
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { AuthInfo } from '@modelcontextprotocol/server';
import { callerOf } from './caller.js';

/** What a session id carries. */
export interface SealedSession {
  /** The protocol revision negotiated at `initialize`. */
  protocolVersion: string;
  /** The client's `capabilities` from `initialize`. */
  capabilities: Record<string, unknown>;
  /** The client's `clientInfo` from `initialize`. */
  clientInfo: Record<string, unknown>;
  /** Random, base64url: the session's name between processes (never the id itself). */
  key: string;
  /** Digest of the caller the session belongs to (see {@link callerDigest}). */
  caller: string;
  /** When it was made, in ms since the epoch. */
  createdAt: number;
}

const PREFIX = 'v1.';
const AAD = Buffer.from('v1');
const INFO = Buffer.from('agentwire gateway session id v1');
const TAG_INFO = Buffer.from('agentwire gateway task id tag v1');
/** The shortest secret accepted, in characters. */
export const MIN_SESSION_SECRET_LENGTH = 32;

/** Seals and opens session ids under one key; see the file header. */
export class SessionSeal {
  readonly #key: Buffer;
  readonly #tagKey: Buffer;
  readonly #maxAgeMs: number;

  /**
   * @param secret the shared secret (≥ 32 characters); every process of one gateway must have the same.
   * @param maxAgeMs how long an id is accepted after it was made.
   * @throws RangeError when the secret is shorter than 32 characters.
   */
  constructor(secret: string | Uint8Array, maxAgeMs: number) {
    const bytes = typeof secret === 'string' ? Buffer.from(secret, 'utf8') : Buffer.from(secret);
    if (bytes.length < MIN_SESSION_SECRET_LENGTH)
      throw new RangeError(
        `MCPGateway: the session secret must be at least ${MIN_SESSION_SECRET_LENGTH} characters long`,
      );
    this.#key = Buffer.from(hkdfSync('sha256', bytes, Buffer.alloc(0), INFO, 32));
    this.#tagKey = Buffer.from(hkdfSync('sha256', bytes, Buffer.alloc(0), TAG_INFO, 32));
    this.#maxAgeMs = maxAgeMs;
  }

  /** How long an id is accepted after it was made, in ms. */
  get maxAgeMs(): number {
    return this.#maxAgeMs;
  }

  /** A seal with a random key: ids this process makes open only here (one process, or no shared secret). */
  static ephemeral(maxAgeMs: number): SessionSeal {
    return new SessionSeal(randomBytes(32), maxAgeMs);
  }

  /**
   * A keyed tag of `text` (HMAC-SHA256 under a key of its own derived from the same secret, base64url, 128
   * bits): what binds a task id to its caller (task-ids.ts). Every process with the same secret makes the same.
   */
  tag(text: string): string {
    return createHmac('sha256', this.#tagKey).update(text).digest('base64url').slice(0, 22);
  }

  /** A fresh random session key. */
  static newKey(): string {
    return randomBytes(16).toString('base64url');
  }

  /** The sealed id of `session`. */
  seal(session: SealedSession): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(AAD);
    const plain = Buffer.from(
      JSON.stringify([
        session.protocolVersion,
        session.capabilities,
        session.clientInfo,
        session.key,
        session.caller,
        session.createdAt,
      ]),
    );
    const body = Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return PREFIX + body.toString('base64url');
  }

  /** The session sealed in `id`, or undefined when it is not one of ours, was altered, or has expired. */
  open(id: string, now = Date.now()): SealedSession | undefined {
    if (!id.startsWith(PREFIX) || id.length > 8192) return undefined;
    const body = Buffer.from(id.slice(PREFIX.length), 'base64url');
    if (body.length < 12 + 16 + 2) return undefined;
    let plain: Buffer;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, body.subarray(0, 12));
      decipher.setAAD(AAD);
      decipher.setAuthTag(body.subarray(body.length - 16));
      plain = Buffer.concat([decipher.update(body.subarray(12, body.length - 16)), decipher.final()]);
    } catch {
      return undefined;
    }
    let fields: unknown;
    try {
      fields = JSON.parse(plain.toString('utf8'));
    } catch {
      return undefined;
    }
    if (!Array.isArray(fields) || fields.length !== 6) return undefined;
    const [protocolVersion, capabilities, clientInfo, key, caller, createdAt] = fields as unknown[];
    if (
      typeof protocolVersion !== 'string' ||
      !isObject(capabilities) ||
      !isObject(clientInfo) ||
      typeof key !== 'string' ||
      typeof caller !== 'string' ||
      typeof createdAt !== 'number'
    )
      return undefined;
    if (now - createdAt > this.#maxAgeMs || createdAt > now + 60_000) return undefined;
    return { protocolVersion, capabilities, clientInfo, key, caller, createdAt };
  }
}

/**
 * The digest a session is bound to: the caller the access check recognised (caller.ts: how, and its id, a
 * JWT's `sub`), the token's `clientId` and, when a verifier put them there, its `subject` / `sub`; not the
 * token itself, which changes when it is refreshed. Two users of one OAuth client thus never share a session.
 */
export function callerDigest(authInfo: AuthInfo | undefined): string {
  const extra = authInfo?.extra ?? {};
  const subject = extra.subject ?? extra.sub ?? '';
  const caller = callerOf(authInfo);
  return createHash('sha256')
    .update(`${authInfo?.clientId ?? ''}\n${typeof subject === 'string' ? subject : JSON.stringify(subject)}`)
    .update(`\n${caller.auth}\n${caller.id}`)
    .digest('base64url')
    .slice(0, 22);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
