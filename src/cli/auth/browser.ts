/**
 * Opens a URL in the user's browser with the platform's own opener (`open` on macOS, `xdg-open` elsewhere
 * on Unix, `start` through `cmd` on Windows), detached, without waiting. An opener that is missing or fails
 * changes nothing: the URL is always printed too, so the user can open it by hand.
 */
import { spawn } from 'node:child_process';

/** Starts the platform's opener on `url`; never throws. */
export function openInBrowser(url: string, platform: NodeJS.Platform = process.platform): void {
  const [command, args] =
    platform === 'darwin'
      ? ['open', [url]]
      : platform === 'win32'
        ? // `start`'s first quoted argument is a window title; the empty one keeps the URL an argument.
          ['cmd', ['/c', 'start', '""', url.replaceAll('&', '^&')]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
  } catch {
    // No opener: the printed URL is the fallback.
  }
}
