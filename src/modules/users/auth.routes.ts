import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppServices } from '../../services.js';
import { csrfRefusal, originAllowed, sessionCookieOf } from './csrf.js';
import { LoginLimiter } from './login-limiter.js';
import { LoginService } from './login.service.js';
import { SESSION_COOKIE, SessionService, type SessionAuth } from './session.service.js';
import { TotpService } from './totp.service.js';
import { logins } from '../../lib/metrics.js';

const BAD_CREDENTIALS = 'These credentials do not match our records.';
const TOTP_REQUIRED = 'A code from your authenticator app (or a recovery code) is required.';

type Body = Record<string, unknown>;
const bodyOf = (req: FastifyRequest): Body => (req.body && typeof req.body === 'object' && !Array.isArray(req.body) ? (req.body as Body) : {});
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const MAX_FIELD = 1024;

/** Fields that must be non-empty strings; answers the 422 body when one is not. */
function missing(body: Body, fields: string[]): { message: string; errors: Record<string, string[]> } | null {
  const errs: Record<string, string[]> = {};
  for (const f of fields) {
    const v = body[f];
    if (typeof v !== 'string' || !v) errs[f] = [`The ${f.replace(/_/g, ' ')} field is required.`];
    else if (v.length > MAX_FIELD) errs[f] = [`The ${f.replace(/_/g, ' ')} may not be greater than ${MAX_FIELD} characters.`];
  }
  return Object.keys(errs).length ? { message: Object.values(errs)[0][0], errors: errs } : null;
}

/**
 * The console's session routes (the contract in issue 16): login, logout, the session, password
 * change and reset request, TOTP enrolment. JSON in and out; no token. The cookie is HttpOnly,
 * SameSite=Lax, Secure when the service is reached over TLS.
 */
export function registerAuthRoutes(app: FastifyInstance, services: AppServices): void {
  const { config } = services;
  const limiter = new LoginLimiter();
  const login = () => new LoginService(services.orm.em.fork(), services);
  const sessions = () => new SessionService(services.orm.em.fork(), config);

  const secure = (req: FastifyRequest) => config.PUBLIC_URL?.startsWith('https:') || req.protocol === 'https';
  const setCookie = (req: FastifyRequest, reply: FastifyReply, value: string, maxAge: number) =>
    reply.header(
      'set-cookie',
      `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure(req) ? '; Secure' : ''}`,
    );

  /** The request's live session, CSRF-checked for methods that change something; else the answer was sent. */
  async function session(req: FastifyRequest, reply: FastifyReply): Promise<SessionAuth | null> {
    const cookie = sessionCookieOf(req.headers);
    const found = cookie ? await sessions().resolve(cookie, req.ip) : null;
    if (!found) {
      reply.status(401).send({ message: 'Unauthenticated.' });
      return null;
    }
    const refusal = csrfRefusal(req.method, req.headers, found.csrfToken, config.PUBLIC_URL);
    if (refusal) {
      reply.status(403).send({ message: refusal });
      return null;
    }
    return found;
  }

  app.post('/auth/login', async (req, reply) => {
    // Login has no session to forge, but a foreign page logging a browser into its own user is refused too.
    if (!originAllowed(req.headers, config.PUBLIC_URL)) return reply.status(403).send({ message: 'Cross-site request refused.' });
    const body = bodyOf(req);
    const invalid = missing(body, ['email', 'password']);
    if (invalid) return reply.status(422).send(invalid);
    const key = `${str(body.email).trim().toLowerCase()}|${req.ip}`;
    const wait = limiter.blockedFor(key);
    if (wait) {
      logins.inc({ outcome: 'throttled' });
      return reply.status(429).header('retry-after', String(wait)).send({ message: 'Too many failed logins; try again later.' });
    }
    const outcome = await login().login({
      email: str(body.email),
      password: str(body.password),
      totp: str(body.totp).slice(0, 32) || undefined,
      recovery_code: str(body.recovery_code).slice(0, 64) || undefined,
    });
    logins.inc({ outcome: outcome.kind === 'ok' ? 'ok' : outcome.kind === 'totp-required' ? 'totp_required' : 'bad_credentials' });
    if (outcome.kind !== 'ok') {
      limiter.fail(key);
      if (outcome.kind === 'totp-required') return reply.status(401).send({ message: TOTP_REQUIRED, totp_required: true });
      return reply.status(401).send({ message: BAD_CREDENTIALS });
    }
    limiter.clear(key);
    setCookie(req, reply, outcome.cookie, config.SESSION_MAX_HOURS * 3600);
    reply.header('cache-control', 'no-store');
    return { user: outcome.user, csrf_token: outcome.csrfToken, password_change_required: outcome.passwordChangeRequired };
  });

  app.post('/auth/logout', async (req, reply) => {
    const s = await session(req, reply);
    if (!s) return reply;
    await sessions().close(sessionCookieOf(req.headers)!);
    setCookie(req, reply, '', 0);
    return reply.status(204).send();
  });

  app.get('/auth/session', async (req, reply) => {
    const s = await session(req, reply);
    if (!s) return reply;
    reply.header('cache-control', 'no-store');
    return { user: s.user, csrf_token: s.csrfToken, password_change_required: s.passwordChangeRequired };
  });

  app.post('/auth/password', async (req, reply) => {
    const s = await session(req, reply);
    if (!s) return reply;
    const body = bodyOf(req);
    const invalid = missing(body, ['current_password', 'new_password']);
    if (invalid) return reply.status(422).send(invalid);
    const result = await login().changePassword(s.actor.userId!, s.id, str(body.current_password), str(body.new_password));
    if (result === 'bad-current') {
      const message = 'The current password is incorrect.';
      return reply.status(422).send({ message, errors: { current_password: [message] } });
    }
    if (result !== 'ok') return reply.status(422).send({ message: result, errors: { new_password: [result] } });
    return reply.status(204).send();
  });

  app.post('/auth/password-reset', async (req, reply) => {
    const body = bodyOf(req);
    const invalid = missing(body, ['email']);
    if (invalid) return reply.status(422).send(invalid);
    await login().requestReset(str(body.email));
    // The same answer whether or not the address has a user: it tells nothing about who does.
    return reply.status(202).send({ message: 'If a user has this address, a reset link is on its way.' });
  });

  app.post('/auth/totp/enroll', async (req, reply) => {
    const s = await session(req, reply);
    if (!s) return reply;
    const out = await new TotpService(services.orm.em.fork(), config).enroll(s.actor.userId!);
    if (out === 'enabled') return reply.status(409).send({ message: 'Two-factor authentication is already on; disable it first.' });
    reply.header('cache-control', 'no-store');
    return out;
  });

  app.post('/auth/totp/confirm', async (req, reply) => {
    const s = await session(req, reply);
    if (!s) return reply;
    const invalid = missing(bodyOf(req), ['code']);
    if (invalid) return reply.status(422).send(invalid);
    const codes = await new TotpService(services.orm.em.fork(), config).confirm(s.actor.userId!, str(bodyOf(req).code));
    if (!codes) return reply.status(422).send({ message: 'The code is invalid.', errors: { code: ['The code is invalid.'] } });
    reply.header('cache-control', 'no-store');
    return { recovery_codes: codes };
  });

  app.post('/auth/totp/disable', async (req, reply) => {
    const s = await session(req, reply);
    if (!s) return reply;
    const invalid = missing(bodyOf(req), ['code']);
    if (invalid) return reply.status(422).send(invalid);
    const ok = await new TotpService(services.orm.em.fork(), config).disable(s.actor.userId!, str(bodyOf(req).code));
    if (!ok) return reply.status(422).send({ message: 'The code is invalid.', errors: { code: ['The code is invalid.'] } });
    return reply.status(204).send();
  });
}
