import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppServices } from '../../core/services.js';
import { escapeHtml, sendSecretLinkPage as send } from '../../lib/html.js';
import { registerFormRoutes } from '../../lib/form-routes.js';
import { LoginService, PASSWORD_MIN } from './login.service.js';
import { requestResetWithin } from './auth.routes.js';
import { guarded, type UserGuards } from './guards.js';
import { sendRefusalPage } from './link-pages.js';
import { endStreamsOf } from './session.service.js';

const FORM_LIMIT = 16 * 1024;

const gone = (reply: FastifyReply) =>
  send(reply, 410, 'Reset link no longer valid', '<p>This reset link was used already or has expired. Ask for a new one from the login page.</p>');

function form(token: string, error?: string): string {
  return `<p>Choose a new password (at least ${PASSWORD_MIN} characters).</p>
<form method="post" action="/auth/reset">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<label for="password">New password</label>
<input type="password" id="password" name="password" minlength="${PASSWORD_MIN}" autocomplete="new-password" required>
${error ? `<div class="error">${escapeHtml(error)}</div>` : ''}
<button type="submit">Set the password</button>
</form>`;
}

/** Without a token: the page that asks for a link (the console's "Forgot your password?"). */
const REQUEST_FORM = `<p>Enter the address you log in with; if a user has it, a link to choose a new password is mailed to it.</p>
<form method="post" action="/auth/reset">
<label for="email">Email</label>
<input type="email" id="email" name="email" maxlength="320" autocomplete="username" required>
<button type="submit">Mail me a link</button>
</form>`;
const REQUESTED = '<p>If a user has this address, a link to choose a new password is on its way. It works once, within an hour.</p>';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The page a password reset mail links to (LoginService.requestReset): a form, used once. Asking
 * for a link is limited like POST /auth/password-reset; a made-up token counts as a failed
 * credential of the client (guards.ts).
 */
export function registerResetRoutes(app: FastifyInstance, services: AppServices, guards: UserGuards): void {
  const service = () => new LoginService(services.orm.em.fork(), services, guards.hashing);

  registerFormRoutes(app, FORM_LIMIT, (scope) => {
    scope.get('/auth/reset', async (req, reply) => {
      const token = text((req.query as Record<string, unknown>).token).trim();
      if (!token) return send(reply, 200, 'Reset your password', REQUEST_FORM);
      if (!(await service().resetOpen(token))) return gone(reply);
      return send(reply, 200, 'Reset your password', form(token));
    });

    scope.post('/auth/reset', { bodyLimit: FORM_LIMIT }, async (req, reply) => {
      const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>;
      const token = text(body.token).trim();
      const email = text(body.email).trim();
      if (!token && email && email.length <= 320) {
        const asked = await requestResetWithin(services, guards, email, req.ip);
        if (asked !== 'accepted') return sendRefusalPage(reply, { kind: 'throttled', refusedBy: 'client', ...asked });
        return send(reply, 202, 'Reset your password', REQUESTED);
      }
      if (!token) return gone(reply);
      const reset = () => service().resetPassword(token, text(body.password));
      const outcome = await guarded(guards.credentials, null, req.ip, reset, (r) => r === 'bad-token');
      if (outcome.kind !== 'done') return sendRefusalPage(reply, outcome);
      const result = outcome.result;
      if (result === 'bad-token') return gone(reply);
      if (typeof result === 'string') return send(reply, 422, 'Reset your password', form(token, result));
      await endStreamsOf(services.pubsub, result.ended);
      return send(reply, 200, 'Password set', '<p>Your password is set. You can now <a href="/">log in</a>.</p>');
    });
  });
}
