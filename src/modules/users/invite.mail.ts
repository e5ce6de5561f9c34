import type { OutgoingMail } from '../mail/transport.js';
import { escapeHtml } from '../../lib/html.js';

/** The invitation: who invites, and the one link that lets the invitee join. */
export function inviteMail(accountName: string, link: string): Pick<OutgoingMail, 'subject' | 'text' | 'html' | 'kind'> {
  const subject = `You have been invited to join ${accountName}`;
  const text = [
    `You have been invited to join the account "${accountName}".`,
    '',
    'To accept the invitation, open this link and tell us your name:',
    link,
    '',
    'If you did not expect this invitation, you can ignore this message.',
  ].join('\n');
  const html = [
    `<p>You have been invited to join the account <strong>${escapeHtml(accountName)}</strong>.</p>`,
    `<p><a href="${escapeHtml(link)}">Accept the invitation</a></p>`,
    '<p>If you did not expect this invitation, you can ignore this message.</p>',
  ].join('\n');
  return { subject, text, html, kind: 'invite' };
}
