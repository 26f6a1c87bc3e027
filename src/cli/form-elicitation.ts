/**
 * Form-mode elicitation in the CLI (MCP spec 2025-11-25 and 2026-07-28, "Client > Elicitation > Form Mode"):
 * on a terminal, the server's message, then each field of `requestedSchema` asked in turn on stderr and
 * answered on stdin (form-fields.ts: the question of each type, and the check of each answer). An answer
 * that does not fit is refused with one line and the field asked again; Enter keeps a field's default, and
 * leaves an optional field out. Ctrl-C, the end of input, or Enter on a required field without a default
 * declines the form (`action: 'decline'`), and nothing the user typed is sent.
 *
 *     MCP server "everything" asks: Please provide inputs for the following fields:
 *     (Enter keeps the default; Ctrl-C declines)
 *     String: Your full, legal name (required)
 *     > Ada
 *
 * The capability is declared only where it can be answered, on a terminal (with-servers.ts); a form that
 * reaches a handler without one is declined with one line naming the server and its question.
 */
import type { ElicitParams, ElicitResult, ServerRequestContext } from '../mcp/index.js';
import { type FormField, fieldQuestion, formFields, parseAnswer } from './form-fields.js';
import type { HeldOutput } from './held-output.js';
import type { CliIo } from './io.js';
import { terminalQuestions } from './terminal-questions.js';

/** The line written when the user declines (Ctrl-C, end of input, an empty required field). */
export const DECLINED_LINE = '(declined: nothing was sent)\n';

/** The line of a form declined for want of a terminal, naming the server and its question. */
export function noTerminalFormLine(server: string, message: string): string {
  return `MCP server "${server}" asks: ${message} (a form); there is no terminal to answer it, so it is declined\n`;
}

/**
 * The client option answering form elicitations through `io.askField`; forms are asked one at a time (two
 * tool calls asking at once share one terminal). `output` (`run`'s printer output) is held while one is open.
 */
export function formElicitationHandler(io: CliIo, output?: HeldOutput) {
  let queue: Promise<unknown> = Promise.resolve();
  return (params: ElicitParams, context: ServerRequestContext): Promise<ElicitResult> => {
    const ask = () => terminalQuestions(io).ask(() => askForm(io, params, context));
    const asked = queue.then(() => (output ? output.hold(ask) : ask()));
    queue = asked.catch(() => undefined);
    return asked;
  };
}

async function askForm(
  io: CliIo,
  params: ElicitParams,
  context: ServerRequestContext,
): Promise<ElicitResult> {
  const { askField } = io;
  if (!askField) {
    io.stderr(noTerminalFormLine(context.server, params.message));
    return { action: 'decline' };
  }
  const fields = formFields(params.requestedSchema?.properties ?? {}, params.requestedSchema?.required);
  io.stderr(
    `MCP server "${context.server}" asks: ${params.message}\n(Enter keeps the default; Ctrl-C declines)\n`,
  );
  const content: NonNullable<ElicitResult['content']> = {};
  for (const field of fields) {
    const value = await askOne(io, askField, field, context.signal);
    if (value === DECLINE) {
      io.stderr(DECLINED_LINE);
      return { action: 'decline' };
    }
    if (value !== undefined) content[field.key] = value;
  }
  return { action: 'accept', content };
}

const DECLINE = Symbol('decline');

/** The value of `field` (undefined: left out), asking again while the answer is refused. */
async function askOne(
  io: CliIo,
  askField: NonNullable<CliIo['askField']>,
  field: FormField,
  signal: AbortSignal,
): Promise<string | number | boolean | string[] | undefined | typeof DECLINE> {
  const question = fieldQuestion(field);
  for (;;) {
    const answer = await askField(question, signal);
    if (answer === null) return DECLINE;
    if (answer.trim() === '') {
      if (field.default !== undefined) return field.default;
      return field.required ? DECLINE : undefined;
    }
    const parsed = parseAnswer(field, answer);
    if ('value' in parsed) return parsed.value;
    io.stderr(`  ${parsed.error}\n`);
  }
}
