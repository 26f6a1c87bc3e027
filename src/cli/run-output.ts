/**
 * The terminal side of `agentwire run`: each agent event written as it arrives, through `renderEvent`.
 * Model text goes out delta by delta, so a line may be half-written when a tool starts; the printer keeps
 * track and starts every tool, progress and result line on a fresh line.
 */
import { type AgentEvent, renderEvent } from '../agent/index.js';
import { type Paint, paint } from './colors.js';
import type { CliIo } from './io.js';

/** What `run` writes its events with: {@link RunPrinter}, or {@link JsonLinesPrinter} for `--json`. */
export interface EventPrinter {
  print(event: AgentEvent): void;
  /** Ends a half-written line (before an error line on stderr). */
  endLine(): void;
}

/**
 * `run --json`: each event as one line of JSON on stdout, as the agent emits it (`AgentEvent`: `type` and
 * its fields; `tool_end.durationMs` in ms), with one change: an `error` event's `error` is
 * `{ "name", "message", "kind"? }` (an `Error` has no JSON form of its own). Warnings are events too.
 */
export class JsonLinesPrinter implements EventPrinter {
  readonly #io: CliIo;
  readonly #reword: (error: Error) => unknown;

  /** @param reword the error as the command line words it (flag names, not option names). */
  constructor(io: CliIo, reword: (error: Error) => unknown = (error) => error) {
    this.#io = io;
    this.#reword = reword;
  }

  print(event: AgentEvent): void {
    const line =
      event.type === 'error' ? { type: 'error', error: errorJson(this.#reword(event.error)) } : event;
    this.#io.stdout(`${JSON.stringify(line)}\n`);
  }

  endLine(): void {
    // Every line is whole.
  }
}

function errorJson(error: unknown): { name: string; message: string; kind?: string } {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const { kind } = error as { kind?: unknown };
  return { name: error.name, message: error.message, ...(typeof kind === 'string' && { kind }) };
}

/** Writes a run's events to `io`: text and tool lines on stdout, warnings on stderr. */
export class RunPrinter implements EventPrinter {
  readonly #io: CliIo;
  readonly #colors: Paint;
  #atLineStart = true;

  constructor(io: CliIo) {
    this.#io = io;
    this.#colors = paint(io.colorStdout === true);
  }

  /**
   * Prints one event. `error` events print nothing: the run then throws the same error, and the command
   * reports it once, with its exit code. `turn_end` prints nothing either: line breaks are handled here.
   */
  print(event: AgentEvent): void {
    if (event.type === 'text_delta') {
      this.#write(event.text);
      return;
    }
    if (event.type === 'error' || event.type === 'turn_end') return;
    const text = this.#painted(event, renderEvent(event));
    if (text === '') return;
    this.endLine();
    if (event.type === 'warning') this.#io.stderr(cliWording(text));
    else this.#write(text);
  }

  /** The tool's name in `▸` and `✓` / `✗` lines coloured, and the mark (the rendering's own prefix). */
  #painted(event: AgentEvent, text: string): string {
    const colors = this.#colors;
    if (!colors.enabled) return text;
    if (event.type === 'tool_start') {
      const prefix = `▸ ${event.modelName}`;
      return `▸ ${colors.name(event.modelName)}${text.slice(prefix.length)}`;
    }
    if (event.type === 'tool_end') {
      const mark = event.isError ? colors.fail('✗') : colors.ok('✓');
      const prefix = `  ${event.isError ? '✗' : '✓'} ${event.modelName}`;
      return `  ${mark} ${colors.name(event.modelName)}${text.slice(prefix.length)}`;
    }
    return text;
  }

  /** Ends a half-written line of model text (before the run's last word, or an error on stderr). */
  endLine(): void {
    if (!this.#atLineStart) this.#write('\n');
  }

  #write(text: string): void {
    if (text === '') return;
    this.#io.stdout(text);
    this.#atLineStart = text.endsWith('\n');
  }
}

/** The agent options a warning may name, and the `run` flags that set them. */
const FLAG_OF_OPTION: readonly (readonly [string, string])[] = [
  ['toolSearchThreshold', '--tool-search-threshold'],
  ['maxToolsPerRequest', '--max-tools-per-request'],
];

/** A warning as the CLI's user reads it: the agent's option names replaced by the flags that set them. */
function cliWording(text: string): string {
  let worded = text;
  for (const [option, flag] of FLAG_OF_OPTION) worded = worded.replaceAll(option, flag);
  return worded;
}
