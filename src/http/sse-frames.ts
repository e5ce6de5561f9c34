import type { ExecutionResult, GraphQLError } from 'graphql';
import type { ServerResponse } from 'node:http';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { SharedStream, sharedSubscribe } from '../graphql/shared-events.js';

/** A comment line: what yoga sends first and as a keep-alive. */
const PING = Buffer.from(':\n\n');
const COMPLETE = Buffer.from('event: complete\ndata:\n\n');
const PING_MS = 12_000;

/** Each result's frame, made once however many streams write it (shared results: graphql/shared-events.ts). */
const frames = new WeakMap<object, Buffer>();

function frameOf(result: ExecutionResult): Buffer {
  let frame = frames.get(result);
  if (!frame) {
    frame = Buffer.from(`event: next\ndata: ${textOf(result)}\n\n`);
    frames.set(result, frame);
  }
  return frame;
}

/** The result as yoga writes it: errors without their internal extensions (`http`, `unexpected`). */
function textOf(result: ExecutionResult & { stringify?: (value: unknown) => string }): string {
  if (!result.errors?.length) return result.stringify ? result.stringify(result) : JSON.stringify(result);
  const errors = result.errors.map((error: GraphQLError) => {
    const json = error.toJSON();
    const { http: _http, unexpected: _unexpected, ...extensions } = (json.extensions ?? {}) as Record<string, unknown>;
    return { ...json, extensions: Object.keys(extensions).length ? extensions : undefined };
  });
  return JSON.stringify({ ...result, errors });
}

const HEADERS = { 'content-type': 'text/event-stream', connection: 'keep-alive', 'cache-control': 'no-cache', 'content-encoding': 'none' };

/** What a live stream's writer holds to. */
export interface SseBounds {
  /** Events written that the client has not read (the socket has not drained) before it falls behind: STREAM_BUFFER_EVENTS. */
  limit: number;
  /** How long a stream that ended may wait for its client to read the end before it is cut: STREAM_BEHIND_GRACE_SECONDS. */
  graceMs: number;
  /** What yoga's error masking does to a result (the push path passes it by). */
  mask: (result: ExecutionResult) => ExecutionResult;
}

/** A response that the route writes itself: its stream, waiting for `writeSse`. */
const unwritten = new WeakMap<object, SharedStream>();
/** Each request's subscription as sharedSubscribe made it, before yoga's plugins wrapped it. */
const sharedOf = new WeakMap<object, SharedStream>();

/**
 * Subscriptions on /graphql/stream: each event executed once per group of listeners
 * (graphql/shared-events.ts), and yoga's SSE writing taken over for live streams (async results);
 * single results stay yoga's. yoga answers a header-only response; the route then hands its
 * socket to `writeSse`.
 */
export const liveStreams: Plugin = {
  onSubscribe({ args, setSubscribeFn }) {
    setSubscribeFn(sharedSubscribe as Parameters<typeof setSubscribeFn>[0]);
    return {
      onSubscribeResult({ result }) {
        const request = (args.contextValue as { request?: object }).request;
        if (request && result instanceof SharedStream) sharedOf.set(request, result);
      },
    };
  },
  onResultProcess({ request, result, setResultProcessor }) {
    const shared = sharedOf.get(request);
    sharedOf.delete(request);
    // Anything else (another kind of stream, another Accept) is written by yoga as it would be.
    if (!isAsyncIterable(result) || !shared?.pushable || !request.headers.get('accept')?.includes('text/event-stream')) return;
    setResultProcessor((_r, fetchAPI) => {
      const response = new fetchAPI.Response(null, { status: 200, headers: HEADERS });
      unwritten.set(response, shared);
      return response;
    }, 'text/event-stream');
  },
};

/** The live stream a response of `liveStreams` leaves to its route, once. */
export function unwrittenStream(response: Response): SharedStream | undefined {
  const stream = unwritten.get(response);
  unwritten.delete(response);
  return stream;
}

/**
 * A live stream's events over SSE as graphql-yoga frames them (GraphQL over SSE, distinct
 * connections): a ping first and every 12 s, `next` per result, `complete` at the end. Unlike
 * yoga's own writer, each result is written as it is made (SharedStream.pushTo: no chain of
 * iterators per listener), as one chunk made once per result, straight to the socket: a result
 * shared by many listeners is serialized and encoded once and written to each as the same bytes,
 * with no stream objects between (bench:subscriptions).
 *
 * The socket's own buffer is the queue: a client that has more than `limit` events written and
 * unread (no `drain` since) falls behind: its stream stops listening, what was not yet written is
 * dropped, and it reads the STREAM_BEHIND error event, then `complete`. A client that does not
 * read even that within `graceMs` is cut; one that goes away ends the stream
 * (test/graphql/live-streams.test.ts).
 */
export function writeSse(shared: SharedStream, res: ServerResponse, { limit, graceMs, mask }: SseBounds): void {
  const ping = setInterval(() => {
    if (!res.writableNeedDrain && !res.writableEnded) res.write(PING);
  }, PING_MS);
  let unread = 0;
  let behind = false;
  res.on('drain', () => (unread = 0));
  res.once('close', () => {
    clearInterval(ping);
    void shared.return();
  });
  res.write(PING);
  shared.pushTo({
    result(result) {
      if (res.writableEnded || res.destroyed) return;
      // Fallen behind: only the error event that says so is still written.
      if (behind && !result.errors?.length) return;
      if (res.writableNeedDrain && ++unread > limit && !behind) {
        behind = true;
        return shared.behind();
      }
      res.write(result.errors?.length ? frameOf(mask(result)) : frameOf(result));
    },
    end() {
      if (res.writableEnded || res.destroyed) return;
      clearInterval(ping);
      res.end(COMPLETE);
      const cut = setTimeout(() => res.destroy(), graceMs);
      cut.unref();
      res.once('close', () => clearTimeout(cut));
      res.once('finish', () => clearTimeout(cut));
    },
    fail() {
      res.destroy();
    },
  });
}
