import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppServices } from '../../core/services.js';
import { confirmIdentity } from './identity.confirm.js';
import { escapeHtml, sendSecretLinkPage } from '../../lib/html.js';

/** The link's token is its credential: the page is kept out of caches and Referer headers, and never framed. */
function page(reply: FastifyReply, status: number, title: string, body: string) {
  return sendSecretLinkPage(reply, status, title, `<p>${escapeHtml(body)}</p>`);
}

/** The confirmation link a sender identity's owner opens. */
export function registerIdentityRoutes(app: FastifyInstance, services: AppServices): void {
  app.get('/confirm/identity', async (req, reply) => {
    const token = (req.query as { token?: unknown }).token;
    const outcome =
      typeof token === 'string' && token
        ? await confirmIdentity(services.orm.em.fork(), services.config.APP_SECRET, token)
        : ({ kind: 'invalid' } as const);
    switch (outcome.kind) {
      case 'invalid':
        return page(reply, 400, 'Invalid link', 'This confirmation link is not valid. Ask for a new confirmation email.');
      case 'missing':
        return page(reply, 404, 'Sender identity not found', 'This sender identity no longer exists.');
      case 'already':
        return page(reply, 200, 'Already confirmed', `${outcome.email} is already confirmed as a sender identity.`);
      case 'verified':
        return page(reply, 200, 'Sender identity confirmed', `${outcome.email} is now confirmed as a sender identity.`);
    }
  });
}
