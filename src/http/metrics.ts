import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import { safeEqual } from '../lib/secrets.js';
import { httpDuration, registry, unexpectedErrors } from '../lib/metrics.js';

/** The HTTP server's view of the process's metrics (lib/metrics.ts holds them all). */
export function createMetrics() {
  return { registry, httpDuration, unexpectedErrors };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Whether `Authorization: Bearer <token>` names METRICS_TOKEN (unset: no token is asked for). */
function scrapeAllowed(authorization: string | undefined, token: string | undefined): boolean {
  if (!token) return true;
  const given = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  return given !== undefined && safeEqual(given, token);
}

const UNAUTHENTICATED = JSON.stringify({ message: 'Unauthenticated.' });

/**
 * GET /metrics on the public port, for a scraper holding METRICS_TOKEN. Without that setting the
 * route does not exist (404): figures about the service's traffic and errors are for its
 * operators, who then scrape METRICS_PORT. Guarded by test/platform/metrics.test.ts.
 */
export function registerMetricsRoute(app: FastifyInstance, config: Pick<Config, 'METRICS_TOKEN'>): void {
  const token = config.METRICS_TOKEN;
  if (!token) return;
  app.get('/metrics', async (req, reply) => {
    if (!scrapeAllowed(req.headers.authorization, token)) {
      return reply.status(401).header('www-authenticate', 'Bearer').type('application/json').send(UNAUTHENTICATED);
    }
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}

export interface MetricsListener {
  /** `http://<host>:<port>`, the port as bound (METRICS_PORT=0 picks one). */
  url: string;
  close(): Promise<void>;
}

function answer(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) }).end(body);
}

/**
 * /metrics on a listener of its own (METRICS_PORT on METRICS_HOST, loopback by default), in every
 * process whatever its roles: the worker and the SMTP role have no other HTTP port. It answers GET
 * /metrics only, reads no request body, and asks for METRICS_TOKEN too when that is set.
 */
export async function startMetricsListener(config: Pick<Config, 'METRICS_PORT' | 'METRICS_HOST' | 'METRICS_TOKEN'>, log: Logger): Promise<MetricsListener> {
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?', 1)[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      // Whatever body came with it stays unread: the connection ends with the answer.
      res.setHeader('connection', 'close');
      return answer(res, 404, JSON.stringify({ message: 'Resource not found.' }));
    }
    if (!scrapeAllowed(req.headers.authorization, config.METRICS_TOKEN)) {
      res.setHeader('www-authenticate', 'Bearer');
      return answer(res, 401, UNAUTHENTICATED);
    }
    registry.metrics().then(
      (text) => answer(res, 200, text, registry.contentType),
      (err: unknown) => {
        log.error({ err }, 'metrics scrape failed');
        answer(res, 500, JSON.stringify({ message: 'Server Error' }));
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.METRICS_PORT, config.METRICS_HOST, () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  log.info({ url }, 'metrics listening');
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
