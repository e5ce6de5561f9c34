import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppServices } from '../../services.js';
import { escapeHtml, sendSecretLinkPage as page } from '../../lib/html.js';
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

/**
 * Tracking links are registered as wildcards: a click token carries its target URL and is
 * routinely longer than the router's 100-character limit for a `:param`.
 */
export function registerTrackingRoutes(app: FastifyInstance, services: AppServices): void {
  const { config } = services;
  const service = () => new TrackingService(services.orm.em.fork() as unknown as EntityManager);
  const tokenOf = (req: FastifyRequest, kind: TrackKind) =>
    readToken(config.APP_SECRET, kind, (req.params as Record<string, string>)['*'] ?? '');
  const client = (req: FastifyRequest) => describeClient(req.ip, String(req.headers['user-agent'] ?? ''));
  // A token of one domain's mail is not honoured on another domain's tracking host (service.honoursOn).
  const honoured = async (req: FastifyRequest, token: TrackToken, kind: TrackKind) => {
    const host = req.hostname.toLowerCase();
    if (host === hostOfPublicUrl(config.PUBLIC_URL) || (await service().honoursOn(token.emailId, host))) return true;
    trackingForeignHost.inc({ kind });
    return false;
  };
  // HEAD is what link checkers send: it answers like GET but never counts as a person's action.
  const counts = (req: FastifyRequest) => req.method !== 'HEAD';

  app.register(async (scope) => {
    // "Any POST works" (RFC 8058 one-click posts a form; others post nothing or anything else).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, (_req, _body, done) => done(null, undefined));

    scope.get('/t/o/*', async (req, reply) => {
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
    });

    scope.get('/t/c/*', async (req, reply) => {
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
    });

    scope.get('/t/u/*', async (req, reply) => {
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
    });

    scope.post('/t/u/*', { bodyLimit: BODY_LIMIT }, async (req, reply) => {
      const token = tokenOf(req, 'unsubscribe');
      if (!token || !(await honoured(req, token, 'unsubscribe'))) return invalid(reply);
      const outcome = await service().unsubscribe(token.emailId, await client(req));
      if (outcome.kind === 'missing') return invalid(reply);
      if (outcome.kind === 'already') return already(reply, outcome.email);
      return page(reply, 200, 'Unsubscribed', `<p>${escapeHtml(outcome.email)} will no longer receive these emails.</p>`);
    });
  });
}
