import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppServices } from '../../core/services.js';
import { escapeHtml, sendSecretLinkPage as send } from '../../lib/html.js';
import { InviteService } from './invite.service.js';
import { registerFormRoutes } from '../../lib/form-routes.js';
import { msg } from '../../core/errors.js';
import { passwordField, signInNext } from './invite.mail.js';
import { passwordProblem } from './login.service.js';
import { guarded, type UserGuards } from './guards.js';
import { sendRefusalPage } from './link-pages.js';

const FORM_LIMIT = 16 * 1024;
const NAME_MAX = 191;

type Fields = { name: string; last_name: string };
type FieldErrors = Partial<Record<keyof Fields | 'password', string>>;


const badToken = (reply: FastifyReply) =>
  send(reply, 400, 'Invalid invitation link', '<p>This invitation link is not valid. Check that you opened the whole link from the email.</p>');
const gone = (reply: FastifyReply) =>
  send(reply, 410, 'Invitation no longer available', '<p>This invitation was withdrawn or has already been accepted.</p>');
const expired = (reply: FastifyReply) =>
  send(reply, 410, 'Invitation expired', '<p>This invitation link has expired. Ask the person who invited you to send it again.</p>');

function form(token: string, accountName: string, values: Fields, errs: FieldErrors = {}): string {
  const input = (field: keyof Fields, label: string) => `
<label for="${field}">${label}</label>
<input type="text" id="${field}" name="${field}" maxlength="${NAME_MAX}" required value="${escapeHtml(values[field])}">
${errs[field] ? `<div class="error">${escapeHtml(errs[field]!)}</div>` : ''}`;
  return `<p>You have been invited to join <strong>${escapeHtml(accountName)}</strong>.</p>
<form method="post" action="/invites/accept">
<input type="hidden" name="token" value="${escapeHtml(token)}">
${input('name', 'First name')}
${input('last_name', 'Last name')}
${passwordField(errs.password)}
<button type="submit">Join</button>
</form>`;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function check(values: Fields, password: string): FieldErrors {
  const errs: FieldErrors = {};
  const weak = password ? passwordProblem(password) : null;
  if (weak) errs.password = weak;
  for (const field of ['name', 'last_name'] as const) {
    if (!values[field]) errs[field] = msg.required(field);
    else if (values[field].length > NAME_MAX) errs[field] = msg.maxString(field, NAME_MAX);
  }
  return errs;
}

/**
 * The invitation link an invited person opens to join the account. A link works for
 * INVITE_TTL_HOURS; accepting with a made-up or expired one counts as a failed credential of the
 * client (guards.ts), and the password it sets is hashed within the hashing cap.
 */
export function registerInviteRoutes(app: FastifyInstance, services: AppServices, guards: UserGuards): void {
  const service = () => new InviteService(services.orm.em.fork(), services);

  registerFormRoutes(app, FORM_LIMIT, (scope) => {

    scope.get('/invites/accept', async (req, reply) => {
      const token = text((req.query as Record<string, unknown>).token);
      const invite = await service().pending(token);
      if (invite === 'bad-token') return badToken(reply);
      if (invite === 'expired') return expired(reply);
      if (invite === 'gone') return gone(reply);
      return send(reply, 200, 'Join the account', form(token, invite.account.name, { name: '', last_name: '' }));
    });

    scope.post('/invites/accept', { bodyLimit: FORM_LIMIT }, async (req, reply) => {
      const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
      const token = text(body.token);
      const values: Fields = { name: text(body.name), last_name: text(body.last_name) };
      const password = typeof body.password === 'string' ? body.password : '';
      const errs = check(values, password);
      if (Object.keys(errs).length) {
        const invite = await service().pending(token);
        // Accepting with an expired link answers as a made-up one does.
        if (invite === 'bad-token' || invite === 'expired') return badToken(reply);
        if (invite === 'gone') return gone(reply);
        return send(reply, 422, 'Join the account', form(token, invite.account.name, values, errs));
      }
      const accept = () => service().accept(token, { ...values, password }, guards.hashing);
      const guardedOutcome = await guarded(guards.credentials, null, req.ip, accept, (o) => o.kind === 'bad-token');
      if (guardedOutcome.kind !== 'done') return sendRefusalPage(reply, guardedOutcome);
      const outcome = guardedOutcome.result;
      if (outcome.kind === 'bad-token') return badToken(reply);
      if (outcome.kind === 'gone') return gone(reply);
      return send(
        reply,
        200,
        'Welcome',
        `<p>Welcome, ${escapeHtml(outcome.user.name)}. You are now a member of <strong>${escapeHtml(outcome.accountName)}</strong>.</p>${signInNext(password !== '')}`,
      );
    });
  });
}
