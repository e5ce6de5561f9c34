import type { FastifyRequest } from 'fastify';
import type { Config } from '../config/index.js';
import { threadFile, UntrustedPool } from '../lib/untrusted-pool.js';
import { JSON_SHAPE_LIMITS, type ShapeProblem } from '../lib/json-shape.js';
import { jsonBodiesParsed } from '../lib/metrics.js';
import { errors, label, msg, type AppError } from '../core/errors.js';
import { readJson, type JsonRead } from './json-body.thread.js';
import { readBody } from './body-read.js';

/**
 * The JSON content-type parser of every route. A body up to INLINE_JSON_BYTES is parsed on the
 * event loop: so small a body cannot cost much, and the hot path (a send of a few hundred bytes)
 * takes no thread hop. A larger one (up to MAX_BODY_BYTES on the routes that carry files) is
 * parsed in a worker thread; only its value's structured clone comes back to the loop, a cost the
 * shape limits bound. Both ways the body's shape is counted before it is parsed
 * (lib/json-shape.ts), and a refused body is answered in its route's shape by the server's error
 * handler (JsonBodyRefusal). Guarded by test/platform/json-bodies.test.ts.
 */

/** Bodies up to this size are parsed inline. */
export const INLINE_JSON_BYTES = 256 * 1024;

/** Large bodies waiting for the parser thread at most; past that, 503 with Retry-After. */
const QUEUE = 16;
/**
 * A parser thread's heap: the body's text, the value built from it, and the clone of it that goes
 * back. Bodies are 40 MB at most; a body that needs more ends its thread and is refused (413).
 */
const THREAD_HEAP_MB = 256;

/** The code of the error a refused body ends its parse with. */
const JSON_BODY_REFUSED = 'PB_JSON_BODY_REFUSED';

/** A body refused while it was parsed: `refused` is what its route answers, in its own shape. */
export class JsonBodyRefusal extends Error {
  readonly code = JSON_BODY_REFUSED;
  constructor(readonly refused: AppError) {
    super(refused.message);
  }
}

const notJson = () => errors.badRequest('The request body is not valid JSON.');

/**
 * What a body past a shape limit is answered: a list too long or nesting too deep is a 422 on the
 * field it was found at (`variables.emails` on /graphql, `to` on /v1; `body` for the body itself);
 * too many values altogether is the body being too large.
 */
function shapeRefusal(problem: ShapeProblem): AppError {
  if (problem.kind === 'values') return errors.payloadTooLarge(`The request body holds more than ${problem.limit} values.`);
  const field = problem.path || 'body';
  if (problem.kind === 'items') return errors.invalid(field, msg.maxItems(field, problem.limit));
  return errors.invalid(field, `The ${label(field)} may not be nested more than ${problem.limit} levels deep.`);
}

type Done = (err: Error | null, value?: unknown) => void;

/** Hands fastify a read body's value, or its refusal. */
function settle(read: JsonRead, done: Done): void {
  if ('value' in read) return done(null, read.value);
  done(new JsonBodyRefusal('problem' in read ? shapeRefusal(read.problem) : notJson()));
}

/** A pool's refusal (untrusted-pool.ts names its reason) as the body's answer; anything else is unexpected. */
function poolRefusal(err: unknown): JsonBodyRefusal | null {
  const reason = (err as { reason?: unknown } | null)?.reason;
  if (reason === 'busy') return new JsonBodyRefusal(errors.unavailable());
  if (reason === 'timeout' || reason === 'memory') {
    return new JsonBodyRefusal(errors.payloadTooLarge('The request body could not be parsed within the limits of its parser.'));
  }
  return null;
}

type ParserSettings = Pick<Config, 'UNTRUSTED_PARSE_THREADS' | 'UNTRUSTED_PARSE_TIMEOUT_MS'>;

/** The parser (fastify's raw-stream signature) and the close of its threads. */
export function jsonBodyParser(config: ParserSettings) {
  let pool: UntrustedPool | null = null;
  const threads = () =>
    (pool ??= new UntrustedPool(threadFile(import.meta.url, 'json-body.thread'), {
      threads: config.UNTRUSTED_PARSE_THREADS,
      queue: QUEUE,
      timeoutMs: config.UNTRUSTED_PARSE_TIMEOUT_MS,
      heapMb: THREAD_HEAP_MB,
    }));
  const parseBody = (body: Buffer, done: Done): void => {
    if (body.length <= INLINE_JSON_BYTES) {
      jsonBodiesParsed.inc({ thread: 'event_loop' });
      return settle(readJson(body, JSON_SHAPE_LIMITS), done);
    }
    jsonBodiesParsed.inc({ thread: 'pool' });
    // readBody's buffer is the body's own, moved to the thread rather than copied for it.
    threads()
      .run<JsonRead>('readJsonBody', { bytes: body, limits: JSON_SHAPE_LIMITS }, [body.buffer as ArrayBuffer])
      .then(
        (read) => settle(read, done),
        (err: unknown) => done(poolRefusal(err) ?? (err as Error)),
      );
  };
  return {
    /** fastify's raw-stream parser signature: the body is read by readBody, then parsed. */
    parse(req: FastifyRequest, payload: NodeJS.ReadableStream, done: Done): void {
      readBody(req, payload, (err, body) => (err ? done(err) : parseBody(body as Buffer, done)));
    },
    async close(): Promise<void> {
      await pool?.close();
    },
  };
}
