/**
 * The progress of a long `agentwire call` on a terminal: the tool's `notifications/progress` (MCP spec
 * 2025-11-25, "Basic > Utilities > Progress") drawn as one bar line on stderr with `cli-progress`, loaded
 * only when a report comes. Drawn only on a terminal (io.ts `terminal`); piped, nothing is written. The
 * last state stays on screen when the call ends, above the result, as curl's meter does.
 *
 *     ████████████████████████████████████████ 3/3 Operation progress
 *
 * Without a `total`, the line is `progress <n>` and the message.
 */
import { type CliIo, singleLine } from './io.js';

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
  let bar: Promise<Bar> | undefined;
  let last = Promise.resolve();
  const start = async (report: CallProgressReport): Promise<Bar> => {
    const { default: progress } = await import('cli-progress');
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
    return created;
  };
  return {
    onprogress: (report) => {
      // Reports are drawn in order, the first one once the library is loaded.
      bar ??= start(report);
      last = last
        .then(() => bar)
        .then((current) => {
          if (current === undefined) return;
          if (report.total !== undefined && report.total > 0) current.setTotal(report.total);
          current.update(report.progress, { message: messageOf(report) });
        })
        .catch(() => undefined);
    },
    stop: async () => {
      await last;
      const current = await bar?.catch(() => undefined);
      current?.stop();
    },
  };
}

/** The report's text, folded onto the bar's line. */
function messageOf({ message: text }: CallProgressReport): string {
  return text ? ` ${singleLine(text)}` : '';
}
