import type { FastifyInstance } from 'fastify';
import { escapeHtml, sendSecretLinkPage } from '../../lib/html.js';
import type { AppServices } from '../../core/services.js';
import { confirmForward, FORWARD_CONFIRM_PATH } from './inbound.confirm.js';

/** The link the owner of a forward destination opens to agree to receive an inbound route's mail. */
export function registerInboundForwardRoutes(app: FastifyInstance, services: AppServices): void {
  app.get(FORWARD_CONFIRM_PATH, async (req, reply) => {
    const token = (req.query as { token?: unknown }).token;
    const outcome =
      typeof token === 'string' && token
        ? await confirmForward(services.orm.em.fork(), services.config.APP_SECRET, token)
        : ({ kind: 'invalid' } as const);
    const page = (status: number, title: string, body: string) => sendSecretLinkPage(reply, status, title, `<p>${escapeHtml(body)}</p>`);
    switch (outcome.kind) {
      case 'invalid':
        return page(400, 'Invalid link', 'This confirmation link is not valid.');
      case 'missing':
        return page(404, 'Not found', 'This forwarding request no longer exists.');
      case 'already':
        return page(200, 'Already confirmed', `${outcome.email} already receives the forwarded messages.`);
      case 'confirmed':
        return page(200, 'Forwarding confirmed', `${outcome.email} will now receive the forwarded messages.`);
    }
  });
}
