// Counting what a process has left behind, straight from /proc (Linux): its descendant processes and its
// open file descriptors.
import { readdirSync, readFileSync } from 'node:fs';

/** Pids of every live descendant of `pid` (children, grandchildren, …), zombies excluded. */
export function descendants(pid = process.pid) {
  const parentOf = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name, which is in parentheses and may itself contain spaces.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z') continue;
      parentOf.set(Number(entry), Number(fields[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const found = [];
  const frontier = [pid];
  while (frontier.length > 0) {
    const parent = frontier.pop();
    for (const [child, ppid] of parentOf) {
      if (ppid === parent) {
        found.push(child);
        frontier.push(child);
      }
    }
  }
  return found;
}

/** Number of open file descriptors of this process. */
export const openFds = () => readdirSync('/proc/self/fd').length;
