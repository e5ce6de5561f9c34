import type { IncomingHttpHeaders } from 'node:http';
import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppServices } from '../core/services.js';
import type { Ctx } from '../graphql/context.js';
import { authenticate } from '../modules/tokens/token.auth.js';
import { sessionCookieOf } from '../modules/users/csrf.js';
import { SessionService } from '../modules/users/session.service.js';

/**
 * The routes that need a login (/graphql, /graphql/stream, /v1) read a body only from a caller
 * who may send it. Without credentials (no Authorization header, no session cookie) a body may be
 * ANONYMOUS_BODY_BYTES at most: a larger Content-Length is refused at once, a chunked body is
 * counted as it arrives and refused at the limit. With credentials, a body larger than that (or
 * of unknown size) is read only once they authenticate. Either refusal is the route's usual 401,
 * sent with `Connection: close`, so the rest of the upload is never read.
 * Guarded by test/platform/body-before-auth.test.ts.
 */

/** The error a counted anonymous body ends with; the server's error handler answers it 401. */
export const ANONYMOUS_BODY_TOO_LARGE = 'PB_ANONYMOUS_BODY_TOO_LARGE';

/** The size a request announces: 0 without a body, null when it is chunked (unknown until read). */
function announcedSize(headers: IncomingHttpHeaders): number | null {
  if (headers['transfer-encoding'] !== undefined) return null;
  const length = headers['content-length'];
  return length === undefined ? 0 : Number(length);
}

/** Whether the request carries a credential of either kind, without checking it. */
function carriesCredential(headers: IncomingHttpHeaders): boolean {
  return !!headers.authorization || sessionCookieOf(headers) !== null;
}

/**
 * Whether the request's credential authenticates, as contextFromHeaders would decide it: a bearer
 * token (cached tokens cost no statement), else the session cookie. The CSRF rule and the rate
 * limits are left to the context, once the body is read: they concern a known caller.
 */
async function credentialHolds(services: AppServices, req: FastifyRequest): Promise<boolean> {
  const em = services.orm.em.fork() as Ctx['em'];
  const cred = await authenticate(em, req.headers.authorization, services.config.OPERATOR_TOKEN, services.tokenCache);
  if (cred.kind === 'invalid') return false;
  if (cred.kind !== 'none') return true;
  const cookie = sessionCookieOf(req.headers);
  return !!cookie && (await new SessionService(em, services.config).resolve(cookie, req.ip ?? null)) !== null;
}

/** Passes a body through until it exceeds `limit` bytes, then fails with ANONYMOUS_BODY_TOO_LARGE. */
class CappedBody extends Transform {
  receivedEncodedLength = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.receivedEncodedLength += chunk.length;
    if (this.receivedEncodedLength <= this.limit) return done(null, chunk);
    done(Object.assign(new Error('Unauthenticated.'), { statusCode: 401, code: ANONYMOUS_BODY_TOO_LARGE }));
  }
}

export type BodyGate = ReturnType<typeof credentialGate>;

/**
 * The onRequest and preParsing hooks of a route that needs a login. `refuse` sends the route's
 * own 401 (GraphQL's error shape or /v1's `{message}`).
 */
export function credentialGate(services: AppServices, refuse: (req: FastifyRequest, reply: FastifyReply) => FastifyReply) {
  const limit = services.config.ANONYMOUS_BODY_BYTES;
  const counted = new WeakSet<FastifyRequest>();
  const refuseNow = (req: FastifyRequest, reply: FastifyReply) => refuse(req, reply.header('connection', 'close'));
  return {
    async onRequest(req: FastifyRequest, reply: FastifyReply) {
      const size = announcedSize(req.headers);
      if (size === 0) return;
      if (!carriesCredential(req.headers)) {
        if (size === null) counted.add(req);
        // NaN (a malformed length) fails this test and is left to fastify's own 400.
        else if (size > limit) return refuseNow(req, reply);
        return;
      }
      if (size !== null && !(size > limit)) return;
      // Whatever the answer (a 503 when the database cannot be asked), the body is not read.
      reply.header('connection', 'close');
      if (!(await credentialHolds(services, req))) return refuse(req, reply);
      reply.removeHeader('connection');
    },
    async preParsing(req: FastifyRequest, _reply: FastifyReply, payload: NodeJS.ReadableStream) {
      if (!counted.has(req)) return payload;
      // pipe, not pipeline: destroying the request would take the socket the 401 goes out on.
      return payload.pipe(new CappedBody(limit));
    },
  };
}
