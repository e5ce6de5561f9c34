import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AppServices } from '../core/services.js';
import type { Metrics } from './metrics.js';
import { jsonBodyParser } from './json-body.js';
import { httpErrorHandler } from './errors.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Link tokens (confirmation, invitation) act as credentials: they never reach the logs. */
export function redactUrl(url: string): string {
  return url
    .replace(/([?&](?:token|access_token|signature)=)[^&#]*/gi, '$1[redacted]')
    // Tracking links are credentials too: an unsubscribe token unsubscribes.
    .replace(/^(\/t\/[ocu]\/)[^?#]*/, '$1[redacted]');
}

/** fastify with this service's logger, body parsing, error shapes and request ids. */
export function createFastify(services: AppServices, metrics: Metrics): FastifyInstance {
  const { log, config } = services;
  const app = Fastify({
    loggerInstance: log.child(
      {},
      {
        serializers: {
          req: (req: { method: string; url: string; hostname?: string; ip?: string }) => ({
            method: req.method,
            url: redactUrl(req.url),
            host: req.hostname,
            remoteAddress: req.ip,
          }),
        },
      },
    ) as unknown as FastifyBaseLogger,
    // Routes that take files raise their own limit (body-limits.ts).
    bodyLimit: config.DEFAULT_BODY_BYTES,
    // Behind a reverse proxy, client addresses (tracking's country) come from X-Forwarded-For.
    trustProxy: services.config.TRUST_PROXY as boolean | string,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });

  // Large bodies are parsed off the event loop, every body within limits of its shape (json-body.ts).
  const json = jsonBodyParser(config);
  app.addContentTypeParser('application/json', (req, payload, done) => json.parse(req, payload, done));
  app.addHook('onClose', async () => json.close());

  app.setErrorHandler(httpErrorHandler(config, metrics));
  app.setNotFoundHandler((_req, reply) => reply.status(404).send({ message: 'Resource not found.' }));

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });
  return app;
}
