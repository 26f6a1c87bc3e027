/**
 * One long JSON string value being received: its content bytes arrive in pieces and are decoded as they
 * come, so the bytes can be let go at once (see json-large-line.ts).
 */
import { StringDecoder } from 'node:string_decoder';
import { unescapeJsonString } from './json-unescape.js';

/**
 * Bytes decoded at a time (1 MiB). A string that size is allocated outside V8's young generation, where
 * 64 KiB pieces would be copied by every scavenge until promoted (measured: a 20 MiB result in 64 KiB
 * pieces took 30 % longer than in 1 MiB pieces).
 */
const DECODE_BATCH_BYTES = 1024 * 1024;

/** The content of one string (between its quotes), decoded from UTF-8 as it arrives. */
export class LongJsonString {
  /** Whether the content has a backslash (escapes to undo). Set by the scanner, which sees them. */
  escaped = false;
  private readonly decoder = new StringDecoder('utf8');
  private readonly pieces: string[] = [];
  private batch: Buffer[] = [];
  private batchBytes = 0;

  /** Appends content bytes (a UTF-8 sequence may be cut between two calls). */
  push(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.batch.push(bytes);
    this.batchBytes += bytes.length;
    if (this.batchBytes >= DECODE_BATCH_BYTES) this.decodeBatch();
  }

  /** Ends the content: decodes what is left (an incomplete UTF-8 sequence becomes U+FFFD). */
  end(): void {
    this.decodeBatch();
    const rest = this.decoder.end();
    if (rest !== '') this.pieces.push(rest);
  }

  /** The content as written, escapes included: a rope of the decoded pieces. */
  raw(): string {
    let text = '';
    for (const piece of this.pieces) text += piece;
    return text;
  }

  /**
   * The string's value: the raw content, unescaped when it has escapes.
   *
   * @throws SyntaxError for an invalid escape or, in escaped content, a raw control character.
   */
  value(): string {
    return this.escaped ? unescapeJsonString(this.pieces) : this.raw();
  }

  private decodeBatch(): void {
    if (this.batchBytes === 0) return;
    const bytes = this.batch.length === 1 ? this.batch[0]! : Buffer.concat(this.batch, this.batchBytes);
    this.pieces.push(this.decoder.write(bytes));
    this.batch = [];
    this.batchBytes = 0;
  }
}
