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
 */
import { text } from 'node:stream/consumers';
import { ExitCode } from './io.js';
import { runCli } from './program.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const interrupt = new AbortController();
const onSignal = (signal: NodeJS.Signals) => {
  if (interrupt.signal.aborted) process.exit(ExitCode.interrupted);
  interrupt.abort(new Error(`interrupted (${signal})`));
};
for (const signal of SIGNALS) process.on(signal, onSignal);
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stdin: () => text(process.stdin),
  signal: interrupt.signal,
});
for (const signal of SIGNALS) process.off(signal, onSignal);
