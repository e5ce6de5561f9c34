import type { FastifyReply } from 'fastify';
import { sendSecretLinkPage } from '../../lib/html.js';
import { BUSY_RETRY_SECONDS, type Guarded } from './guards.js';

/**
 * The page a form behind a link (reset, invitation, owner claim) answers when its attempt did not
 * run: 429 past a limit, 503 while the password hashing is full, each with Retry-After.
 */
export function sendRefusalPage(reply: FastifyReply, outcome: Exclude<Guarded<unknown>, { kind: 'done' }>): unknown {
  if (outcome.kind === 'busy') {
    reply.header('retry-after', String(BUSY_RETRY_SECONDS));
    return sendSecretLinkPage(reply, 503, 'Busy', '<p>Too many requests at once. Try again in a moment.</p>');
  }
  reply.header('retry-after', String(outcome.retryAfter));
  return sendSecretLinkPage(reply, 429, 'Too many attempts', '<p>Too many attempts from here. Try again later.</p>');
}
