/** The signals that end forage; a child being listed must not outlive any of them. */
export const DEATH_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** The listings in flight, each ended (its child sent SIGTERM) when a death signal arrives. */
const inFlight = new Set<AbortController>();
/** Per signal, whether forage had no handler of its own when the guard was set: then the guard dies of it. */
let installed: Map<NodeJS.Signals, () => void> | undefined;

/**
 * Runs `work` with a signal that aborts when SIGINT, SIGTERM or SIGHUP arrives, so the server it
 * starts is ended at once. When nothing else in forage handles that signal (no mount yet), the
 * process then dies of it as it would have; otherwise the other handler (the mount's) decides.
 */
export async function endedOnSignal<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  if (inFlight.size === 0) install();
  inFlight.add(controller);
  try {
    return await work(controller.signal);
  } finally {
    inFlight.delete(controller);
    if (inFlight.size === 0) uninstall();
  }
}

function install(): void {
  installed = new Map();
  for (const name of DEATH_SIGNALS) {
    const alone = process.listenerCount(name) === 0;
    const handler = (): void => {
      for (const controller of inFlight) controller.abort();
      if (!alone) return;
      uninstall();
      process.kill(process.pid, name);
    };
    installed.set(name, handler);
    process.on(name, handler);
  }
}

function uninstall(): void {
  for (const [name, handler] of installed ?? []) process.off(name, handler);
  installed = undefined;
}
