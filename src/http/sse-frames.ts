import type { ExecutionResult, GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';

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

/**
 * A live stream's events over SSE as graphql-yoga frames them (GraphQL over SSE, distinct
 * connections): a ping first and every 12 s, `next` per result, `complete` at the end. Unlike
 * yoga's own writer, each event is one chunk made once per result, so a result shared by many
 * listeners is serialized and encoded once and written to each as the same bytes
 * (bench:subscriptions). The stream is pulled only as fast as the client reads.
 */
function sseResponse(result: AsyncIterable<ExecutionResult>, fetchAPI: { ReadableStream: typeof ReadableStream; Response: typeof Response }): Response {
  const iterator = result[Symbol.asyncIterator]();
  let ping: NodeJS.Timeout | undefined;
  const body = new fetchAPI.ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(PING);
      ping = setInterval(() => {
        if (controller.desiredSize === null) clearInterval(ping);
        else if (controller.desiredSize > 0) controller.enqueue(PING);
      }, PING_MS);
    },
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.value != null) controller.enqueue(frameOf(next.value));
        if (next.done) {
          clearInterval(ping);
          controller.enqueue(COMPLETE);
          controller.close();
        }
      } catch (err) {
        clearInterval(ping);
        controller.error(err);
      }
    },
    async cancel(reason) {
      clearInterval(ping);
      await iterator.return?.(reason);
    },
  });
  const headers = { 'content-type': 'text/event-stream', connection: 'keep-alive', 'cache-control': 'no-cache', 'content-encoding': 'none' };
  return new fetchAPI.Response(body, { status: 200, headers });
}

/** Takes over yoga's SSE writing for live streams (async results); single results stay yoga's. */
export const sseFrames: Plugin = {
  onResultProcess({ request, result, setResultProcessor }) {
    if (!isAsyncIterable(result) || !request.headers.get('accept')?.includes('text/event-stream')) return;
    setResultProcessor((r, fetchAPI) => sseResponse(r as AsyncIterable<ExecutionResult>, fetchAPI), 'text/event-stream');
  },
};
