import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config/index.js';
import { escapeHtml } from '../../lib/html.js';
import { signToken, verifyToken } from '../../lib/secrets.js';
import type { OutgoingMail } from '../mail/transport.js';
import { InboundForwardDestination } from './inbound.destination.js';

/** The confirmation of a forward destination (see inbound.destination.ts), as for sender identities. */
export const FORWARD_TOKEN_PURPOSE = 'inbound-forward';
export const FORWARD_CONFIRM_PATH = '/confirm/inbound-forward';

/** The address is in the signed claim: the link confirms that address of that row, nothing else. */
export function forwardConfirmationLink(config: Pick<Config, 'PUBLIC_URL' | 'APP_SECRET'>, row: { id: string; email: string }): string {
  const token = signToken(config.APP_SECRET, FORWARD_TOKEN_PURPOSE, { id: row.id, email: row.email });
  return `${config.PUBLIC_URL.replace(/\/+$/, '')}${FORWARD_CONFIRM_PATH}?token=${encodeURIComponent(token)}`;
}

/**
 * Names the route's verified domain, the one party accountable for the request, and carries no
 * other text the account chose (a route name), so the mail cannot be turned into its message.
 */
export function forwardConfirmationMail(config: Config, row: { id: string; email: string }, domainName: string): OutgoingMail {
  const link = forwardConfirmationLink(config, row);
  const intro = `${domainName} wants to forward inbound mail it receives to ${row.email}.`;
  const text = [
    'Hello,',
    '',
    intro,
    'Nothing is forwarded to this address until you agree. To receive these messages, open this link:',
    link,
    '',
    'If you did not expect this, ignore this message: no mail will be forwarded to you.',
  ].join('\n');
  const html = [
    '<p>Hello,</p>',
    `<p>${escapeHtml(intro)}</p>`,
    '<p>Nothing is forwarded to this address until you agree.</p>',
    `<p><a href="${escapeHtml(link)}">Receive these forwarded messages</a></p>`,
    '<p>If you did not expect this, ignore this message: no mail will be forwarded to you.</p>',
  ].join('\n');
  return { to: row.email, from: config.MAIL_FROM, subject: 'Confirm forwarding of inbound mail', text, html, kind: 'inbound_forward_confirmation' };
}

export type ForwardConfirmOutcome = { kind: 'invalid' } | { kind: 'missing' } | { kind: 'confirmed' | 'already'; email: string };

/** Opens a confirmation link; the row is locked while it is checked, so two clicks confirm once. */
export async function confirmForward(em: EntityManager, appSecret: string, token: string): Promise<ForwardConfirmOutcome> {
  const claim = verifyToken<{ id?: unknown; email?: unknown }>(appSecret, FORWARD_TOKEN_PURPOSE, token);
  if (!claim || typeof claim.id !== 'string' || typeof claim.email !== 'string') return { kind: 'invalid' };
  const { id, email } = claim;
  return em.transactional(async (tx) => {
    const row = await tx.findOne(InboundForwardDestination, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!row) return { kind: 'missing' };
    if (row.email !== email) return { kind: 'invalid' };
    if (row.confirmed_at) return { kind: 'already', email };
    row.confirmed_at = new Date();
    await tx.flush();
    return { kind: 'confirmed', email };
  });
}
