import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const unexpectedErrors = new Counter({
    name: 'unexpected_errors_total',
    help: 'Errors that were masked as 500 (each is logged with its request id)',
    registers: [registry],
  });
  return { registry, httpDuration, unexpectedErrors };
}

export type Metrics = ReturnType<typeof createMetrics>;
