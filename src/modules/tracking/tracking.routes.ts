import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppServices } from '../../core/services.js';
import { escapeHtml, sendSecretLinkPage as page } from '../../lib/html.js';
import { named } from '../../lib/form-routes.js';
import { trackingForeignHost } from '../../lib/metrics.js';
import { describeClient } from './client.js';
import { readToken, type TrackKind, type TrackToken } from './tokens.js';
import { TrackingService } from './tracking.service.js';

// A transparent 1x1 GIF.
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const BODY_LIMIT = 16 * 1024;


/** The header-safe (percent-encoded) form of a signed target; only web links are ever followed. */
function httpTarget(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

const NOT_FOUND = { message: 'Resource not found.' };

/** PUBLIC_URL's host name, read per request: without a PUBLIC_URL setting it is known once the server listens. */
let publicHost = { url: '', host: '' };
function hostOfPublicUrl(url: string): string {
  if (publicHost.url !== url) publicHost = { url, host: new URL(url).hostname.toLowerCase() };
  return publicHost.host;
}

const invalid = (reply: FastifyReply) =>
  page(reply, 404, 'Link not valid', '<p>This unsubscribe link is not valid or no longer works.</p>');

const already = (reply: FastifyReply, email: string) =>
  page(reply, 200, 'Unsubscribed', `<p>${escapeHtml(email)} is already unsubscribed.</p>`);

/** What every tracking route asks of a request: its token, its client, and whether it is honoured and counted. */
interface TrackingRequests {
  service: () => TrackingService;
  tokenOf: (req: FastifyRequest, kind: TrackKind) => TrackToken | null;
  client: (req: FastifyRequest) => ReturnType<typeof describeClient>;
  honoured: (req: FastifyRequest, token: TrackToken, kind: TrackKind) => Promise<boolean>;
  counts: (req: FastifyRequest) => boolean;
}

function trackingRequests(services: AppServices): TrackingRequests {
  const { config } = services;
  const service = () => new TrackingService(services.orm.em.fork() as unknown as EntityManager);
  return {
    service,
    tokenOf: (req, kind) => readToken(config.APP_SECRET, kind, (req.params as Record<string, string>)['*'] ?? ''),
    client: (req) => describeClient(req.ip, String(req.headers['user-agent'] ?? '')),
    // A token of one domain's mail is not honoured on another domain's tracking host (service.honoursOn).
    honoured: async (req, token, kind) => {
      const host = req.hostname.toLowerCase();
      if (host === hostOfPublicUrl(config.PUBLIC_URL) || (await service().honoursOn(token.emailId, host))) return true;
      trackingForeignHost.inc({ kind });
      return false;
    },
    // HEAD is what link checkers send: it answers like GET but never counts as a person's action.
    counts: (req) => req.method !== 'HEAD',
  };
}

/** GET /t/o/*: the pixel, after recording the open. */
function openPixel({ service, tokenOf, client, honoured, counts }: TrackingRequests) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const token = tokenOf(req, 'open');
    if (token && !(await honoured(req, token, 'open'))) return reply.status(404).send(NOT_FOUND);
    if (token && counts(req)) {
      try {
        await service().open(token.emailId, await client(req));
      } catch (err) {
        // The reader still gets an image; a missed open is logged, not shown as a broken picture.
        req.log.error({ err }, 'recording an open failed');
      }
    }
    return reply
      .header('content-type', 'image/gif')
      .header('cache-control', 'no-store, no-cache, must-revalidate, max-age=0')
      .header('pragma', 'no-cache')
      .send(PIXEL);
  };
}

/** GET /t/c/*: the redirect to the link's target, after recording the click. */
function clickRedirect({ service, tokenOf, client, honoured, counts }: TrackingRequests) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const token = tokenOf(req, 'click');
    const target = token && httpTarget(token.url!);
    if (!token || !target || !(await honoured(req, token, 'click'))) return reply.status(404).send(NOT_FOUND);
    if (counts(req)) {
      const outcome = await service().click(token.emailId, token.url!, await client(req));
      if (outcome === 'missing') return reply.status(404).send(NOT_FOUND);
    }
    return reply
      .status(302)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('location', target)
      .send();
  };
}

/** GET /t/u/*: the page that asks before unsubscribing. */
function unsubscribePage({ service, tokenOf, honoured }: TrackingRequests) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const token = tokenOf(req, 'unsubscribe');
    if (!token || !(await honoured(req, token, 'unsubscribe'))) return invalid(reply);
    const state = await service().lookup(token.emailId);
    if (state.kind === 'missing') return invalid(reply);
    if (state.kind === 'already') return already(reply, state.email);
    // Unsubscribing takes a POST: mail scanners that follow every link must not unsubscribe anyone.
    return page(
      reply,
      200,
      'Unsubscribe',
      `<p>Stop sending these emails to <strong>${escapeHtml(state.email)}</strong>?</p>
<form method="post" action="${escapeHtml(req.url.split('?')[0])}">
<button type="submit">Unsubscribe</button>
</form>`,
    );
  };
}

/** POST /t/u/*: the unsubscribe itself, from the page's form or a one-click client. */
function unsubscribe({ service, tokenOf, client, honoured }: TrackingRequests) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const token = tokenOf(req, 'unsubscribe');
    if (!token || !(await honoured(req, token, 'unsubscribe'))) return invalid(reply);
    const outcome = await service().unsubscribe(token.emailId, await client(req));
    if (outcome.kind === 'missing') return invalid(reply);
    if (outcome.kind === 'already') return already(reply, outcome.email);
    return page(reply, 200, 'Unsubscribed', `<p>${escapeHtml(outcome.email)} will no longer receive these emails.</p>`);
  };
}

/**
 * Tracking links are registered as wildcards: a click token carries its target URL and is
 * routinely longer than the router's 100-character limit for a `:param`.
 */
export function registerTrackingRoutes(app: FastifyInstance, services: AppServices): void {
  const requests = trackingRequests(services);
  app.register(named('tracking routes', async (scope) => {
    // "Any POST works" (RFC 8058 one-click posts a form; others post nothing or anything else).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, _body, done) => done(null, undefined));
    scope.get('/t/o/*', openPixel(requests));
    scope.get('/t/c/*', clickRedirect(requests));
    scope.get('/t/u/*', unsubscribePage(requests));
    scope.post('/t/u/*', { bodyLimit: BODY_LIMIT }, unsubscribe(requests));
  }));
}
