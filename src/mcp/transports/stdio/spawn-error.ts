/**
 * Turns the errno of a failed `spawn()` into a sentence a user can act on. Node reports a missing command
 * as a bare `spawn foo ENOENT`, the same code it uses for a missing working directory; we tell them apart.
 * No environment value (PATH included) ever appears in the message.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

/** What to say about a spawn failure, and what the `cause` code was. */
export function describeSpawnError(command: string, cwd: string | undefined, error: unknown): string {
  const code = error instanceof Error && 'code' in error ? String(error.code) : undefined;
  const where = cwd === undefined ? '' : ` (cwd "${cwd}")`;
  if (cwd !== undefined && !existsSync(cwd)) return `working directory "${cwd}" does not exist`;
  const hasPath = command.includes('/') || command.includes('\\');
  switch (code) {
    case 'ENOENT':
      if (!hasPath) return `command "${command}" was not found on PATH`;
      return isAbsolute(command)
        ? `command "${command}" was not found`
        : `command "${command}" was not found (resolved against the working directory: "${resolve(cwd ?? process.cwd(), command)}")`;
    case 'EACCES':
      return `command "${command}" is not executable (permission denied)${where}`;
    case 'ENOTDIR':
      return `working directory "${cwd ?? ''}" is not a directory`;
    default:
      return `command "${command}" could not be started${where}: ${code ?? (error instanceof Error ? error.message : String(error))}`;
  }
}
