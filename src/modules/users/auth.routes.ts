import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppServices } from '../../core/services.js';
import { csrfRefusal, originAllowed, sessionCookieOf } from './csrf.js';
import { BUSY_RETRY_SECONDS, guarded, type Guarded, type UserGuards } from './guards.js';
import { LoginService } from './login.service.js';
import { endStreamsOf, SESSION_COOKIE, SessionService, type SessionAuth } from './session.service.js';
import { TotpService } from './totp.service.js';
import { logins } from '../../lib/metrics.js';

const BAD_CREDENTIALS = 'These credentials do not match our records.';
const TOTP_REQUIRED = 'A code from your authenticator app (or a recovery code) is required.';
const INVALID_CODE = 'The code is invalid.';

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

/** The JSON answer of an attempt that did not run: 429 past a limit, 503 when the hashing is full; both say when to retry. */
function refuse(reply: FastifyReply, outcome: Exclude<Guarded<unknown>, { kind: 'done' }>, throttledMessage: string) {
  if (outcome.kind === 'busy') {
    return reply.status(503).header('retry-after', String(BUSY_RETRY_SECONDS)).send({ message: 'Too many logins at once; try again shortly.' });
  }
  return reply.status(429).header('retry-after', String(outcome.retryAfter)).send({ message: throttledMessage });
}

/**
 * A reset link mailed to `email` within the reset mail limits (guards.ts): 'throttled' past the
 * client's or everyone's; past the address's own, nothing is mailed and the caller answers as if
 * it were, so the answer tells nothing about the address.
 */
export async function requestResetWithin(
  services: AppServices,
  guards: UserGuards,
  email: string,
  clientIp: string,
): Promise<'accepted' | { retryAfter: number }> {
  const service = new LoginService(services.orm.em.fork(), services, guards.hashing);
  const address = email.trim().toLowerCase();
  const outcome = await guarded(guards.resetMails, address, clientIp, () => service.requestReset(address), () => true);
  if (outcome.kind === 'throttled' && outcome.refusedBy !== 'address') return { retryAfter: outcome.retryAfter };
  return 'accepted';
}

interface AuthKit {
  services: AppServices;
  guards: UserGuards;
  login(): LoginService;
  totp(): TotpService;
  sessions(): SessionService;
  setCookie(req: FastifyRequest, reply: FastifyReply, value: string, maxAge: number): void;
  /** The request's live session, CSRF-checked unless it is a GET; else the answer was sent. */
  session(req: FastifyRequest, reply: FastifyReply): Promise<SessionAuth | null>;
}

function authKit(services: AppServices, guards: UserGuards): AuthKit {
  const { config } = services;
  const secure = (req: FastifyRequest) => config.PUBLIC_URL?.startsWith('https:') || req.protocol === 'https';
  const sessions = () => new SessionService(services.orm.em.fork(), config);
  return {
    services,
    guards,
    login: () => new LoginService(services.orm.em.fork(), services, guards.hashing),
    totp: () => new TotpService(services.orm.em.fork(), config),
    sessions,
    setCookie: (req, reply, value, maxAge) =>
      void reply.header(
        'set-cookie',
        `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure(req) ? '; Secure' : ''}`,
      ),
    async session(req, reply) {
      const cookie = sessionCookieOf(req.headers);
      const found = cookie ? await sessions().resolve(cookie, req.ip) : null;
      if (!found) {
        reply.status(401).send({ message: 'Unauthenticated.' });
        return null;
      }
      // GET /auth/session only reads (it is how the console learns the token): the others change something.
      const refusal = req.method === 'GET' ? null : csrfRefusal(req.headers, found.csrfToken, config.PUBLIC_URL);
      if (refusal) {
        reply.status(403).send({ message: refusal });
        return null;
      }
      return found;
    },
  };
}

/**
 * The console's session routes: login, logout, the session, password
 * change and reset request, TOTP enrolment. JSON in and out; no token. The cookie is HttpOnly,
 * SameSite=Lax, Secure when the service is reached over TLS. Every check of a password or a code
 * and every reset mail goes through the limits of guards.ts.
 */
export function registerAuthRoutes(app: FastifyInstance, services: AppServices, guards: UserGuards): void {
  const kit = authKit(services, guards);
  registerLogin(app, kit);
  registerSessionRoutes(app, kit);
  registerTotpRoutes(app, kit);
  app.post('/auth/password-reset', async (req, reply) => {
    const body = bodyOf(req);
    const invalid = missing(body, ['email']);
    if (invalid) return reply.status(422).send(invalid);
    const outcome = await requestResetWithin(services, guards, str(body.email), req.ip);
    if (outcome !== 'accepted') return refuse(reply, { kind: 'throttled', refusedBy: 'client', ...outcome }, 'Too many reset requests; try again later.');
    // The same answer whether or not the address has a user: it tells nothing about who does.
    return reply.status(202).send({ message: 'If a user has this address, a reset link is on its way.' });
  });
}

function registerLogin(app: FastifyInstance, kit: AuthKit): void {
  const { config } = kit.services;
  app.post('/auth/login', async (req, reply) => {
    // Login has no session to forge, but a foreign page logging a browser into its own user is refused too.
    if (!originAllowed(req.headers, config.PUBLIC_URL)) return reply.status(403).send({ message: 'Cross-site request refused.' });
    const body = bodyOf(req);
    const invalid = missing(body, ['email', 'password']);
    if (invalid) return reply.status(422).send(invalid);
    const input = {
      email: str(body.email),
      password: str(body.password),
      totp: str(body.totp).slice(0, 32) || undefined,
      recovery_code: str(body.recovery_code).slice(0, 64) || undefined,
    };
    const address = input.email.trim().toLowerCase();
    const outcome = await guarded(kit.guards.credentials, address, req.ip, () => kit.login().login(input), (o) => o.kind !== 'ok');
    if (outcome.kind !== 'done') {
      logins.inc({ outcome: outcome.kind === 'busy' ? 'busy' : 'throttled' });
      return refuse(reply, outcome, 'Too many failed logins; try again later.');
    }
    const result = outcome.result;
    logins.inc({ outcome: result.kind === 'ok' ? 'ok' : result.kind === 'totp-required' ? 'totp_required' : 'bad_credentials' });
    if (result.kind === 'totp-required') return reply.status(401).send({ message: TOTP_REQUIRED, totp_required: true });
    if (result.kind !== 'ok') return reply.status(401).send({ message: BAD_CREDENTIALS });
    kit.setCookie(req, reply, result.cookie, config.SESSION_MAX_HOURS * 3600);
    reply.header('cache-control', 'no-store');
    return { user: result.user, csrf_token: result.csrfToken, password_change_required: result.passwordChangeRequired };
  });
}

function registerSessionRoutes(app: FastifyInstance, kit: AuthKit): void {
  const { pubsub } = kit.services;
  app.post('/auth/logout', async (req, reply) => {
    const s = await kit.session(req, reply);
    if (!s) return reply;
    const ended = await kit.sessions().close(sessionCookieOf(req.headers)!);
    await endStreamsOf(pubsub, [ended]);
    kit.setCookie(req, reply, '', 0);
    return reply.status(204).send();
  });

  app.get('/auth/session', async (req, reply) => {
    const s = await kit.session(req, reply);
    if (!s) return reply;
    reply.header('cache-control', 'no-store');
    return { user: s.user, csrf_token: s.csrfToken, password_change_required: s.passwordChangeRequired };
  });

  app.post('/auth/password', async (req, reply) => {
    const s = await kit.session(req, reply);
    if (!s) return reply;
    const body = bodyOf(req);
    const invalid = missing(body, ['current_password', 'new_password']);
    if (invalid) return reply.status(422).send(invalid);
    const change = () => kit.login().changePassword(s.actor.userId!, s.id, str(body.current_password), str(body.new_password));
    const outcome = await guarded(kit.guards.credentials, s.user.email, req.ip, change, (r) => r === 'bad-current');
    if (outcome.kind !== 'done') return refuse(reply, outcome, 'Too many failed password checks; try again later.');
    const result = outcome.result;
    if (result === 'bad-current') {
      const message = 'The current password is incorrect.';
      return reply.status(422).send({ message, errors: { current_password: [message] } });
    }
    if (typeof result === 'string') return reply.status(422).send({ message: result, errors: { new_password: [result] } });
    await endStreamsOf(pubsub, result.ended);
    return reply.status(204).send();
  });
}

function registerTotpRoutes(app: FastifyInstance, kit: AuthKit): void {
  const invalidCode = (reply: FastifyReply) => reply.status(422).send({ message: INVALID_CODE, errors: { code: [INVALID_CODE] } });
  const tooMany = 'Too many invalid codes; try again later.';

  app.post('/auth/totp/enroll', async (req, reply) => {
    const s = await kit.session(req, reply);
    if (!s) return reply;
    const out = await kit.totp().enroll(s.actor.userId!);
    if (out === 'enabled') return reply.status(409).send({ message: 'Two-factor authentication is already on; disable it first.' });
    reply.header('cache-control', 'no-store');
    return out;
  });

  app.post('/auth/totp/confirm', async (req, reply) => {
    const s = await kit.session(req, reply);
    if (!s) return reply;
    const invalid = missing(bodyOf(req), ['code']);
    if (invalid) return reply.status(422).send(invalid);
    const confirm = () => kit.totp().confirm(s.actor.userId!, str(bodyOf(req).code), s.id);
    const outcome = await guarded(kit.guards.credentials, s.user.email, req.ip, confirm, (r) => r === null);
    if (outcome.kind !== 'done') return refuse(reply, outcome, tooMany);
    if (!outcome.result) return invalidCode(reply);
    await endStreamsOf(kit.services.pubsub, outcome.result.ended);
    reply.header('cache-control', 'no-store');
    return { recovery_codes: outcome.result.codes };
  });

  app.post('/auth/totp/disable', async (req, reply) => {
    const s = await kit.session(req, reply);
    if (!s) return reply;
    const invalid = missing(bodyOf(req), ['code']);
    if (invalid) return reply.status(422).send(invalid);
    const disable = () => kit.totp().disable(s.actor.userId!, str(bodyOf(req).code));
    const outcome = await guarded(kit.guards.credentials, s.user.email, req.ip, disable, (ok) => !ok);
    if (outcome.kind !== 'done') return refuse(reply, outcome, tooMany);
    if (!outcome.result) return invalidCode(reply);
    return reply.status(204).send();
  });
}
