import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppServices } from '../../services.js';
import { escapeHtml, sendSecretLinkPage as send } from '../../lib/html.js';
import { registerFormRoutes } from '../../http/form-routes.js';
import { LoginService, PASSWORD_MIN } from './login.service.js';

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

/** The page a password reset mail links to (LoginService.requestReset): a form, used once. */
export function registerResetRoutes(app: FastifyInstance, services: AppServices): void {
  const service = () => new LoginService(services.orm.em.fork(), services);

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
        await service().requestReset(email);
        return send(reply, 202, 'Reset your password', REQUESTED);
      }
      if (!token) return gone(reply);
      const outcome = await service().resetPassword(token, text(body.password));
      if (outcome === 'bad-token') return gone(reply);
      if (outcome !== 'ok') return send(reply, 422, 'Reset your password', form(token, outcome));
      return send(reply, 200, 'Password set', '<p>Your password is set. You can now <a href="/">log in</a>.</p>');
    });
  });
}
