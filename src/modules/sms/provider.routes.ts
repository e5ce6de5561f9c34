import type { FastifyInstance } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppServices } from '../../core/services.js';
import { smsProvider, type SmsStatusUpdate } from './sms.provider.js';
import { Sms } from './sms.entity.js';
import { SmsRepository } from './sms.repository.js';
import { advanceSms } from './sms.status.js';
import { registerFormRoutes } from '../../lib/form-routes.js';

const BODY_LIMIT = 64 * 1024;

/**
 * Applies a provider's status report. The callback URL names our text (`sms_id`), so the lock
 * waits for a send still committing its provider id; the provider id must then match. Reports
 * for texts we do not know change nothing.
 */
async function applyStatus(services: AppServices, update: SmsStatusUpdate, smsId: string | null): Promise<void> {
  const em = services.orm.em.fork() as EntityManager;
  await em.transactional(async (tx) => {
    const rows = await new SmsRepository(tx).lockForReport(smsId, update.providerId);
    const row = rows.find((r) => r.provider_id === update.providerId);
    if (!row) return;
    const sms = await tx.findOneOrFail(Sms, { id: row.id }, { populate: ['recipient'] });
    advanceSms(tx, sms, update.status, { type: update.errorType, description: update.errorDescription });
    await tx.flush();
  });
}

/** Form fields as strings (a repeated field keeps its last value). */
function formOf(body: unknown): Record<string, string> {
  if (!body || typeof body !== 'object') return {};
  return Object.fromEntries(Object.entries(body as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
}

/**
 * `POST /sms/provider/<name>/status`: the configured provider's delivery reports. The request is
 * checked by the provider's signature over the public URL it was sent to; anything unsigned is
 * 403. Known or not, a signed report answers 200, so the provider stops retrying it.
 */
export function registerSmsProviderRoutes(app: FastifyInstance, services: AppServices): void {
  const { config } = services;
  registerFormRoutes(app, BODY_LIMIT, (scope) => {
    scope.post('/sms/provider/:provider/status', async (req, reply) => {
      const provider = smsProvider(config);
      if ((req.params as { provider: string }).provider !== provider.name) return reply.status(404).send({ message: 'Resource not found.' });
      // Read per request: without a PUBLIC_URL setting it is only known once the server listens.
      const base = config.PUBLIC_URL.replace(/\/+$/, '');
      const update = provider.parseStatus({ url: base + req.url, headers: req.headers, body: formOf(req.body) });
      if (!update) return reply.status(403).send({ message: 'Invalid signature.' });
      const smsId = (req.query as Record<string, unknown>).sms_id;
      await applyStatus(services, update, typeof smsId === 'string' ? smsId : null);
      return reply.status(200).header('content-type', 'text/plain; charset=utf-8').send('');
    });
  });
}
