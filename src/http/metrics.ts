import { httpDuration, registry, unexpectedErrors } from '../lib/metrics.js';

/** The HTTP server's view of the process's metrics (lib/metrics.ts holds them all). */
export function createMetrics() {
  return { registry, httpDuration, unexpectedErrors };
}

export type Metrics = ReturnType<typeof createMetrics>;
