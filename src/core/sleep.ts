/** The one abortable sleep of agentwire (backoff between retries, polling for a process tree's end). */
import { setTimeout as delay } from 'node:timers/promises';

/**
 * Resolves `true` after `ms`, or `false` as soon as `signal` aborts (at once when it already has); leaves no
 * timer or listener behind. The timer is ref'd on purpose: a wait someone awaits must finish. With an
 * unref'd timer, a host whose only remaining work was such a wait (a CLI stopping its server after Ctrl-C,
 * once the direct child had exited) saw its event loop empty mid-teardown, and Node ended it with exit code
 * 13 (unsettled top-level await), skipping its own cleanup.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return delay(ms, undefined, signal === undefined ? {} : { signal }).then(
    () => true,
    () => false,
  );
}
