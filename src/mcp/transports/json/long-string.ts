/**
 * One long JSON string value being received: its content bytes arrive in pieces and are decoded and
 * unescaped as they come, so neither the bytes nor the escaped text are kept (see large-line.ts).
 */
import { StringDecoder } from 'node:string_decoder';
import { completeEscapesEnd } from './unescape.js';

/**
 * Bytes decoded at a time (1 MiB). A string that size is allocated outside V8's young generation, where
 * 64 KiB pieces would be copied by every scavenge until promoted (measured: a 20 MiB result in 64 KiB
 * pieces took 30 % longer than in 1 MiB pieces).
 */
const DECODE_BATCH_BYTES = 1024 * 1024;

/** The content of one string (between its quotes), decoded from UTF-8 and unescaped as it arrives. */
export class LongJsonString {
  private readonly decoder = new StringDecoder('utf8');
  private batch: Buffer[] = [];
  private batchBytes = 0;
  /** The value so far: a rope of unescaped pieces. */
  private text = '';
  /** The end of the last decoded piece when it stopped inside an escape (at most five characters). */
  private carry = '';
  /** The content as written from the first piece that could not be unescaped on; the string is invalid. */
  private invalid: string | undefined;

  /** Appends content bytes (a UTF-8 sequence or an escape may be cut between two calls). */
  push(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.batch.push(bytes);
    this.batchBytes += bytes.length;
    if (this.batchBytes >= DECODE_BATCH_BYTES) this.decodeBatch();
  }

  /** Ends the content: an incomplete UTF-8 sequence becomes U+FFFD, an incomplete escape is invalid. */
  end(): void {
    this.decodeBatch();
    this.take(this.decoder.end());
    if (this.carry !== '' && this.invalid === undefined) this.invalid = this.carry;
    this.carry = '';
  }

  /** Whether every escape was valid (RFC 8259 section 7, as `JSON.parse` reads them). */
  get valid(): boolean {
    return this.invalid === undefined;
  }

  /** The string's value (a rope of its pieces); meaningful when {@link LongJsonString.valid}. */
  value(): string {
    return this.text;
  }

  /**
   * The content as JSON text, for reports: the valid part re-escaped (`JSON.stringify`'s escapes, which
   * may differ from the server's, e.g. `é` for `\u00e9`), then what could not be read, as written.
   */
  written(): string {
    return JSON.stringify(this.text).slice(1, -1) + this.carry + (this.invalid ?? '');
  }

  private decodeBatch(): void {
    if (this.batchBytes === 0) return;
    const bytes = this.batch.length === 1 ? this.batch[0]! : Buffer.concat(this.batch, this.batchBytes);
    this.batch = [];
    this.batchBytes = 0;
    this.take(this.decoder.write(bytes));
  }

  /**
   * Unescapes decoded text up to the last complete escape with `JSON.parse` (its grammar and errors
   * exactly; a surrogate pair cut between pieces joins again, JavaScript strings being UTF-16). Text
   * without a backslash is taken as it is: the one leniency, a raw control character is accepted there.
   */
  private take(piece: string): void {
    if (piece === '') return;
    if (this.invalid !== undefined) {
      this.invalid += piece;
      return;
    }
    const text = this.carry + piece;
    if (!text.includes('\\')) {
      this.text += text;
      this.carry = '';
      return;
    }
    const cut = completeEscapesEnd(text);
    try {
      this.text += JSON.parse(`"${text.slice(0, cut)}"`) as string;
      this.carry = text.slice(cut);
    } catch {
      this.invalid = text;
      this.carry = '';
    }
  }
}
