import type { Config } from '../../config/index.js';
import { signToken } from '../../lib/secrets.js';
import type { OutgoingMail } from '../mail/transport.js';
import type { SenderIdentity } from './identity.entity.js';
import { escapeHtml } from '../../lib/html.js';

export const IDENTITY_TOKEN_PURPOSE = 'identity';

/**
 * The address is part of the signed claim, so a link stops working once the identity's
 * address is no longer the one it was sent to.
 */
export function confirmationLink(config: Pick<Config, 'PUBLIC_URL' | 'APP_SECRET'>, identity: SenderIdentity): string {
  const token = signToken(config.APP_SECRET, IDENTITY_TOKEN_PURPOSE, { id: identity.id, email: identity.email });
  return `${config.PUBLIC_URL.replace(/\/+$/, '')}/confirm/identity?token=${encodeURIComponent(token)}`;
}

export function confirmationMail(config: Config, identity: SenderIdentity, domainName: string): OutgoingMail {
  const link = confirmationLink(config, identity);
  const note = identity.add_note && identity.personal_note ? identity.personal_note : null;
  const intro = `${identity.email} was added as a sender identity for ${domainName}.`;
  const text = [
    `Hello ${identity.name},`,
    '',
    intro,
    ...(note ? ['', 'Personal note:', note] : []),
    '',
    'Confirm that this address may be used as a sender by opening this link:',
    link,
    '',
    'If you did not expect this, ignore this message.',
  ].join('\n');
  const html = [
    `<p>Hello ${escapeHtml(identity.name)},</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    ...(note ? [`<blockquote>${escapeHtml(note)}</blockquote>`] : []),
    `<p><a href="${escapeHtml(link)}">Confirm this sender identity</a></p>`,
    '<p>If you did not expect this, ignore this message.</p>',
  ].join('\n');
  return {
    to: identity.email,
    from: config.MAIL_FROM,
    subject: 'Confirm your sender identity',
    text,
    html,
    kind: 'identity_confirmation',
  };
}
