import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppServices } from '../../core/services.js';
import { escapeHtml, sendSecretLinkPage as send } from '../../lib/html.js';
import { OwnerService, type OwnerFieldErrors, type OwnerProfile } from './owner.service.js';
import { registerFormRoutes } from '../../lib/form-routes.js';
import { passwordField, signInNext } from './invite.mail.js';
import { guarded, type UserGuards } from './guards.js';
import { sendRefusalPage } from './link-pages.js';

const FORM_LIMIT = 16 * 1024;

const badToken = (reply: FastifyReply) =>
  send(reply, 400, 'Invalid link', '<p>This link is not valid. Check that you opened the whole link the service printed.</p>');
const claimed = (reply: FastifyReply) =>
  send(reply, 410, 'Account already has an owner', '<p>This account already has an owner. Ask them to invite you.</p>');

function form(token: string, accountName: string, values: OwnerProfile, errs: OwnerFieldErrors = {}): string {
  const input = (field: Exclude<keyof OwnerProfile, 'password'>, label: string, type: string) => `
<label for="${field}">${label}</label>
<input type="${type}" id="${field}" name="${field}" required value="${escapeHtml(values[field])}">
${errs[field] ? `<div class="error">${escapeHtml(errs[field]!)}</div>` : ''}`;
  return `<p>Become the owner of <strong>${escapeHtml(accountName)}</strong>.</p>
<form method="post" action="/owner/claim">
<input type="hidden" name="token" value="${escapeHtml(token)}">
${input('email', 'Email', 'text')}
${input('name', 'First name', 'text')}
${input('last_name', 'Last name', 'text')}
${passwordField(errs.password, true)}
<button type="submit">Become the owner</button>
</form>`;
}

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/**
 * The first-start owner link (owner.service.ts): a form, then the account's admin user. A claim
 * with a made-up link counts as a failed credential of the client (guards.ts).
 */
export function registerOwnerRoutes(app: FastifyInstance, services: AppServices, guards: UserGuards): void {
  const service = () => new OwnerService(services.orm.em.fork(), services.config);

  registerFormRoutes(app, FORM_LIMIT, (scope) => {

    scope.get('/owner/claim', async (req, reply) => {
      const token = text((req.query as Record<string, unknown>).token);
      const account = await service().open(token);
      if (account === 'bad-token') return badToken(reply);
      if (account === 'claimed') return claimed(reply);
      return send(reply, 200, 'Claim the account', form(token, account.name, { email: '', name: '', last_name: '' }));
    });

    scope.post('/owner/claim', { bodyLimit: FORM_LIMIT }, async (req, reply) => {
      const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
      const token = text(body.token);
      const profile: OwnerProfile = {
        email: text(body.email),
        name: text(body.name),
        last_name: text(body.last_name),
        password: typeof body.password === 'string' ? body.password : '',
      };
      const claim = () => service().claim(token, profile, guards.hashing);
      const guardedOutcome = await guarded(guards.credentials, null, req.ip, claim, (o) => o.kind === 'bad-token');
      if (guardedOutcome.kind !== 'done') return sendRefusalPage(reply, guardedOutcome);
      const outcome = guardedOutcome.result;
      if (outcome.kind === 'bad-token') return badToken(reply);
      if (outcome.kind === 'claimed') return claimed(reply);
      if (outcome.kind === 'invalid') return send(reply, 422, 'Claim the account', form(token, outcome.account.name, profile, outcome.errors));
      return send(
        reply,
        200,
        'Welcome',
        `<p>Welcome, ${escapeHtml(outcome.user.name)}. You are now the owner of <strong>${escapeHtml(outcome.account.name)}</strong>.</p>${signInNext(true)}`,
      );
    });
  });
}
