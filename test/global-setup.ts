/**
 * Suite-wide check: after every test file has run, no process started by the tests may still be running.
 * Processes are recognised by their command line (real servers run from node_modules, fixtures from
 * test/fixtures), so a leak anywhere in the suite fails the run with the culprits' command lines.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MARKERS = ['node_modules/@modelcontextprotocol/server-', '/test/fixtures/'];
/** This checkout: another checkout's suite (another Node version, another work tree) is someone else's. */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Started from this checkout: named by an absolute path into it, or by a relative one from a folder in it. */
function fromThisCheckout(pid: string, cmdline: string): boolean {
  if (cmdline.includes(`${ROOT}/`)) return true;
  try {
    const cwd = readlinkSync(`/proc/${pid}/cwd`);
    return cwd === ROOT || cwd.startsWith(`${ROOT}/`);
  } catch {
    return false; // exited while we looked
  }
}

function leftovers(): string[] {
  const found: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
    } catch {
      continue; // exited while we looked
    }
    if (cmdline.includes('vitest')) continue;
    if (!MARKERS.some((marker) => cmdline.includes(marker))) continue;
    if (fromThisCheckout(entry, cmdline)) found.push(`${entry}: ${cmdline}`);
  }
  return found;
}

// Processes that were running before the suite started are someone else's (another run on this machine).
let preexisting = new Set<string>();

export function setup(): void {
  preexisting = new Set(leftovers());
}

export async function teardown(): Promise<void> {
  // Give processes that are being killed right now a moment to be reaped.
  const ours = () => leftovers().filter((line) => !preexisting.has(line));
  for (let i = 0; i < 20 && ours().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
  const after = ours();
  if (after.length > 0) {
    // Vitest reports an error thrown here ("error during close") but still exits 0: set the code ourselves.
    console.error(`test processes left running after the suite:\n${after.join('\n')}`);
    process.exitCode = 1;
  }
}
