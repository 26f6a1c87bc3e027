#!/usr/bin/env node
/**
 * The `agentwire` executable: runs the CLI on the process's arguments. The first Ctrl-C cancels the call
 * in flight and stops the server; the exit code is set, not forced, so buffered output is flushed.
 */
import { runCli } from './program.js';

const interrupt = new AbortController();
const onSigint = () => interrupt.abort(new Error('interrupted (SIGINT)'));
process.once('SIGINT', onSigint);
process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  signal: interrupt.signal,
});
process.off('SIGINT', onSigint);
