import { errorCodes, type FastifyRequest } from 'fastify';

/**
 * Reads a request body as fastify's `parseAs: 'buffer'` does, with its limits and errors (the
 * route's bodyLimit, 413 past it, 400 on a length that does not match), but into one buffer
 * sized by Content-Length and filled chunk by chunk as the chunks arrive. Gathering the chunks and
 * copying them at the end holds the event loop for the whole copy at once, which for a body of
 * tens of megabytes is long enough to stall every other request (test/platform/json-bodies.test.ts).
 * The buffer is never a view of a shared pool, so it can be transferred to a thread as it is.
 */
type Read = (err: Error | null, body?: Buffer) => void;

type Payload = NodeJS.ReadableStream & { receivedEncodedLength?: number };

export function readBody(req: FastifyRequest, payload: Payload, done: Read): void {
  const limit = req.routeOptions.bodyLimit ?? Infinity;
  const announced = Number(req.headers['content-length']);
  if (announced > limit) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  // Sized by what the client announced, which the limit bounds; a body without a length grows.
  let body: Buffer = Buffer.allocUnsafeSlow(Number.isSafeInteger(announced) && announced >= 0 ? announced : 0);
  let received = 0;
  const stop = () => {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onEnd);
  };
  const onData = (data: Buffer | string) => {
    const chunk = typeof data === 'string' ? Buffer.from(data) : data;
    if (received + chunk.length > limit || (payload.receivedEncodedLength ?? 0) > limit) {
      stop();
      return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    }
    if (received + chunk.length > body.length) body = grown(body, received, received + chunk.length);
    chunk.copy(body, received);
    received += chunk.length;
  };
  const onEnd = (err?: Error & { statusCode?: number }) => {
    stop();
    if (err) return done(Object.assign(err, { statusCode: err.statusCode && err.statusCode >= 400 ? err.statusCode : 400 }));
    if (!Number.isNaN(announced) && (payload.receivedEncodedLength || received) !== announced) {
      return done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    }
    done(null, received === body.length ? body : body.subarray(0, received));
  };
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
  payload.resume();
}

/** A body without Content-Length (chunked): its buffer doubles as it fills. */
function grown(body: Buffer, used: number, needed: number): Buffer {
  const next = Buffer.allocUnsafeSlow(Math.max(needed, body.length * 2, 64 * 1024));
  body.copy(next, 0, 0, used);
  return next;
}
