#!/usr/bin/env node
/**
 * The `agentwire` executable: runs the CLI on the process's arguments.
 *
 * Stopping it leaves no server behind: the first SIGINT, SIGTERM or SIGHUP cancels the
 * call or run in flight and stops every server gracefully (stdin closed, then SIGTERM, then SIGKILL of its
 * process group); a second signal during that shutdown exits at once, and the transports' exit hook
 * SIGKILLs every server process group still running. Servers run in their own process groups, so a
 * terminal's Ctrl-C reaches only this process: these handlers are what stops them. The exit code is set, not
 * forced, on the normal path so that buffered output is flushed.
 *
 * When the reader of stdout goes away (`agentwire tools | head -1`), the command ends quietly with exit
 * code 0, as `cat` and `grep` do: no EPIPE stack trace, the work in flight stopped, nothing more written.
 */
import { text } from 'node:stream/consumers';
import { colorWanted, paint, paintStderr } from './colors.js';
import { ExitCode } from './io.js';
import { runCli } from './program.js';
import { askFieldOnTerminal, askOnTerminal } from './terminal-ask.js';
import { confirmOnTerminal } from './url-consent.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const interrupt = new AbortController();
const onSignal = (signal: NodeJS.Signals) => {
  if (interrupt.signal.aborted) process.exit(ExitCode.interrupted);
  interrupt.abort(new Error(`interrupted by ${signal}`));
};
for (const signal of SIGNALS) process.on(signal, onSignal);
let readerGone = false;
const stderrColors = paint(colorWanted(process.stderr.isTTY, process.env));
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  readerGone = true;
  if (!interrupt.signal.aborted) interrupt.abort(new Error('stdout was closed'));
});
const code = await runCli(process.argv.slice(2), {
  stdout: (text) => {
    if (!readerGone) process.stdout.write(text);
  },
  // What would follow (the interrupt the closed pipe caused) is not news to anyone.
  stderr: (text) => {
    if (!readerGone) process.stderr.write(paintStderr(text, stderrColors));
  },
  colorStdout: colorWanted(process.stdout.isTTY, process.env),
  stdin: () => text(process.stdin),
  signal: interrupt.signal,
  ...(process.stderr.isTTY && { terminal: process.stderr }),
  ...(process.stdin.isTTY &&
    process.stderr.isTTY && { confirm: confirmOnTerminal, ask: askOnTerminal, askField: askFieldOnTerminal }),
});
process.exitCode = readerGone ? ExitCode.ok : code;
for (const signal of SIGNALS) process.off(signal, onSignal);
