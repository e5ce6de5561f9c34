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

/** The password reset link (LoginService.requestReset): single use, one hour. */
export function resetMail(accountName: string, link: string): Pick<OutgoingMail, 'subject' | 'text' | 'html' | 'kind'> {
  const subject = `Reset your ${accountName} password`;
  const text = [
    `Someone asked to reset the password of your user in "${accountName}".`,
    '',
    'To choose a new password, open this link within an hour:',
    link,
    '',
    'If you did not ask for this, you can ignore this message: your password stays as it is.',
  ].join('\n');
  const html = [
    `<p>Someone asked to reset the password of your user in <strong>${escapeHtml(accountName)}</strong>.</p>`,
    `<p><a href="${escapeHtml(link)}">Choose a new password</a> (the link works once, within an hour).</p>`,
    '<p>If you did not ask for this, you can ignore this message.</p>',
  ].join('\n');
  return { subject, text, html, kind: 'password_reset' };
}

/**
 * The password field of the owner and invitation forms, at least 10 characters. Required of the
 * owner (no one else could let them in); optional for an invited user (a reset sets one later).
 * Never echoed back.
 */
export function passwordField(error?: string, required = false): string {
  const hint = required ? 'at least 10 characters' : 'at least 10 characters; you can also set it later';
  return `
<label for="password">Password for the console (${hint})</label>
<input type="password" id="password" name="password" minlength="10" autocomplete="new-password"${required ? ' required' : ''}>
${error ? `<div class="error">${escapeHtml(error)}</div>` : ''}`;
}

/** What a form that made a user says at the end: where the console is, and how to sign in. */
export function signInNext(hasPassword: boolean): string {
  const how = hasPassword ? 'with your email and the password you chose' : 'after setting a password with “Forgot your password?” on its sign-in page';
  return `<p><a href="/">Open the console</a> and sign in ${how}.</p>`;
}
