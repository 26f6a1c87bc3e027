/**
 * The progress of a long `agentwire call` on a terminal: the tool's `notifications/progress` (MCP spec
 * 2025-11-25, "Basic > Utilities > Progress") drawn as one bar line on stderr with `cli-progress`, loaded
 * only when a report comes. Drawn only on a terminal (io.ts `terminal`); piped, nothing is written. The
 * last state stays on screen when the call ends, above the result, as curl's meter does.
 *
 *     ████████████████████████████████████████ 3/3 Operation progress
 *
 * Without a `total`, the line is `progress <n>` and the message. While a server's question is open on the
 * terminal (a form), the line drawn is ended where it is and nothing is drawn; the next report after the
 * question starts a new line (terminal-questions.ts).
 */
import { type CliIo, singleLine } from './io.js';
import { terminalQuestions } from './terminal-questions.js';

/** One progress report of a call (MCP `notifications/progress` params, minus the token). */
export interface CallProgressReport {
  progress: number;
  total?: number;
  message?: string;
}

/** Width of the bar, in characters. */
const BAR_CHARS = 40;

/** The `onprogress` of a call and `stop`, which ends the line; `undefined` when there is no terminal. */
export function callProgress(
  io: CliIo,
): { onprogress: (report: CallProgressReport) => void; stop: () => Promise<void> } | undefined {
  const stream = io.terminal;
  if (!stream) return undefined;
  type Bar = import('cli-progress').SingleBar;
  let bar: Promise<Bar | undefined> | undefined;
  /** The bar drawn now, once created; reports update it, unless a question made it step aside. */
  let drawn: Bar | undefined;
  let last = Promise.resolve();
  // A bar that a question made step aside before it was drawn is never drawn (`bar` moved on).
  const start = async (report: CallProgressReport, self: () => unknown): Promise<Bar | undefined> => {
    const { default: progress } = await import('cli-progress');
    if (self() !== bar) return undefined;
    const known = report.total !== undefined && report.total > 0;
    const created = new progress.SingleBar({
      stream,
      format: known ? '{bar} {value}/{total}{message}' : 'progress {value}{message}',
      barsize: BAR_CHARS,
      barCompleteChar: '█',
      barIncompleteChar: '░',
      hideCursor: false,
      clearOnComplete: false,
      linewrap: false,
    });
    created.start(known ? (report.total ?? 0) : 0, report.progress, { message: messageOf(report) });
    drawn = created;
    return created;
  };
  const questions = terminalQuestions(io);
  const forget = questions.draw({
    pause: () => {
      drawn?.stop();
      drawn = undefined;
      bar = undefined;
    },
  });
  return {
    onprogress: (report) => {
      if (questions.asking) return;
      // Reports are drawn in order, the first one once the library is loaded.
      if (bar === undefined) {
        const created: Promise<Bar | undefined> = start(report, () => created);
        bar = created;
      }
      const current = bar;
      last = last
        .then(() => current)
        .then((shown) => {
          if (shown === undefined || shown !== drawn) return;
          if (report.total !== undefined && report.total > 0) shown.setTotal(report.total);
          shown.update(report.progress, { message: messageOf(report) });
        })
        .catch(() => undefined);
    },
    stop: async () => {
      forget();
      await last;
      drawn?.stop();
      drawn = undefined;
    },
  };
}

/** The report's text, folded onto the bar's line. */
function messageOf({ message: text }: CallProgressReport): string {
  return text ? ` ${singleLine(text)}` : '';
}
