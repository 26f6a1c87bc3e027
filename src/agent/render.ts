/**
 * Agent events as terminal text, for `agentwire run` and scripts: a pure function, so the CLI decides where
 * the text goes and tests can assert it exactly.
 */
import type { AgentEvent } from './events.js';

/** Options of {@link renderEvent}. */
export interface RenderOptions {
  /** Longest tool input / result shown, in characters; longer ones are cut with `…`. Default 200. */
  maxChars?: number;
}

/**
 * The text to print for `event`: model text as it arrives, one line per tool call start, progress report
 * and result (`✓` / `✗`), warnings and errors on their own lines; `''` for events with nothing to show.
 */
export function renderEvent(event: AgentEvent, options: RenderOptions = {}): string {
  const max = options.maxChars ?? 200;
  switch (event.type) {
    case 'text_delta':
      return event.text;
    case 'turn_end': {
      const last = event.message.content.at(-1);
      return last?.type === 'text' && last.text !== '' && !last.text.endsWith('\n') ? '\n' : '';
    }
    case 'tool_start': {
      // Unparseable arguments are shown as the model sent them: `{}` would hide what went wrong.
      const shown = event.rawArguments ?? JSON.stringify(event.input);
      return `▸ ${event.modelName} [${event.source}] ${clip(oneLine(shown), max)}\n`;
    }
    case 'tool_progress': {
      const { progress, total, message } = event.progress;
      const amount = total === undefined ? `${progress}` : `${progress}/${total}`;
      return `  … ${event.modelName} ${amount}${message ? ` ${message}` : ''}\n`;
    }
    case 'tool_end': {
      const mark = event.isError ? '✗' : '✓';
      return `  ${mark} ${event.modelName} (${event.durationMs} ms) ${clip(oneLine(event.result), max)}\n`;
    }
    case 'warning':
      return `warning: ${event.message}\n`;
    case 'error':
      return `error: ${event.error.name}: ${event.error.message}\n`;
    default:
      return '';
  }
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ⏎ ');
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
