import { isIP } from 'node:net';
import type { Dispatcher } from 'undici';
import type { Dns } from './dns.js';
import { receiverAgent, CallError } from './receiver-agent.js';
import { refusal } from './public-address.js';

export interface WebhookCallResult {
  ok: boolean;
  /** Null when no response arrived (timeout, connection error, SSRF refusal, DNS failure). */
  status: number | null;
  durationMs: number;
  /** The first 1000 characters of the response body. */
  excerpt: string | null;
  error: string | null;
  /** From a 429's Retry-After (seconds or HTTP date). */
  retryAfterSeconds: number | null;
  /** Do not retry: a 4xx other than 429, a DNS failure, an SSRF refusal, an invalid URL. */
  permanent: boolean;
  gone: boolean;
}

export interface PostWebhookOptions {
  url: string;
  body: string | Uint8Array;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivate: boolean;
  dns: Dns;
  /** Keep-alive connections kept at most per receiver origin (config.WEBHOOK_CONNECTIONS_PER_ORIGIN). */
  connectionsPerOrigin?: number;
}

const MAX_BODY_BYTES = 64 * 1024;
const EXCERPT_CHARS = 1000;
const DEFAULT_CONNECTIONS = 10;

/** URL check shared by the API (validation) and the delivery: http(s) with a host, nothing else. */
export function webhookUrlProblem(raw: string): string | null {
  const parsed = parseTarget(raw);
  return typeof parsed === 'string' ? parsed : null;
}

interface Target {
  url: URL;
  /** Its origin and request target, read once: URL's getters serialise on every read. */
  origin: string;
  path: string;
  /** The hostname without IPv6 brackets. */
  host: string;
  /** The host is an IP address, not a name (checked once per URL, not per request). */
  literal: boolean;
}

/** Parsed webhook URLs: a round posts many deliveries to few URLs. */
const targets = new Map<string, Target>();

/** The URL and its host, or why it cannot be a webhook's. */
function parseTarget(raw: string): Target | string {
  const known = targets.get(raw);
  if (known) return known;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'invalid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http and https URLs are allowed';
  if (!url.hostname) return 'the URL has no host';
  if (targets.size >= 1000) targets.clear();
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const target = { url, origin: url.origin, path: `${url.pathname}${url.search}`, host, literal: isIP(host) !== 0 };
  targets.set(raw, target);
  return target;
}

function retryAfter(value: string | string[] | undefined): number | null {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return null;
  if (/^\s*\d+\s*$/.test(raw)) return Number(raw);
  const at = Date.parse(raw);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function failed(started: number, error: string, permanent: boolean): WebhookCallResult {
  return {
    ok: false,
    status: null,
    durationMs: Date.now() - started,
    excerpt: null,
    error,
    retryAfterSeconds: null,
    permanent,
    gone: false,
  };
}

function answered(started: number, status: number, body: string, retryAfterHeader: string | undefined): WebhookCallResult {
  const ok = status >= 200 && status < 300;
  let error: string | null = null;
  if (!ok) error = status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`;
  return {
    ok,
    status,
    durationMs: Date.now() - started,
    excerpt: body ? body.slice(0, EXCERPT_CHARS) : null,
    error,
    retryAfterSeconds: status === 429 ? retryAfter(retryAfterHeader) : null,
    permanent: status >= 400 && status < 500 && status !== 429,
    gone: status === 410,
  };
}

/**
 * A kept-alive connection the receiver closed while idle shows up as a socket error on the next
 * request over it, before any answer. One more try (on a fresh connection, within the same
 * deadline) tells that apart from a receiver that is really down. The receiver may have got the
 * first request: it sees the same webhook-id twice, which it de-duplicates on anyway.
 */
const STALE_SOCKET = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * One POST of a webhook body over the receiver's kept-alive connections; never throws, never
 * follows redirects (undici's dispatcher does not). The timeout covers connect, send and answer;
 * it starts once the request has one of the origin's connections (receiver-agent.ts), so requests
 * waiting behind a slow receiver's others are not failed for its slowness.
 */
export function postWebhook(opts: PostWebhookOptions): Promise<WebhookCallResult> {
  return new Promise((resolve) => postWebhookThen(opts, resolve));
}

/**
 * postWebhook for the engine's conveyor, which posts tens of thousands a second: `done` is called
 * once with the result, never during this call, and no promise is made along the way.
 */
export function postWebhookThen(opts: PostWebhookOptions, done: (result: WebhookCallResult) => void): void {
  const started = Date.now();
  const target = parseTarget(opts.url);
  if (typeof target === 'string') return later(done, failed(started, target, true));
  // Node connects to a literal IP without calling lookup, so literals are checked here (and the
  // connected address once more in receiver-agent.ts).
  if (target.literal && !opts.allowPrivate) {
    const refused = refusal(target.host);
    if (refused) return later(done, failed(started, refused, true));
  }
  const agent = receiverAgent(opts.dns, opts.allowPrivate, opts.connectionsPerOrigin ?? DEFAULT_CONNECTIONS, opts.timeoutMs);
  const slot = agent.slot(target.origin);
  if (typeof slot === 'function') send(agent.dispatcher, target, opts, slot, done);
  else void slot.then((release) => send(agent.dispatcher, target, opts, release, done));
}

/** `done(result)` on a later turn: a caller never sees its callback run inside its own call. */
function later(done: (result: WebhookCallResult) => void, result: WebhookCallResult): void {
  queueMicrotask(() => done(result));
}

/** The request on a connection slot, retried once on a stale kept-alive socket; the slot is released before `done`. */
function send(dispatcher: Dispatcher, target: Target, opts: PostWebhookOptions, release: () => void, done: (result: WebhookCallResult) => void): void {
  const begun = Date.now();
  const deadline = begun + opts.timeoutMs;
  const end = (o: Once) => {
    release();
    done(o.result);
  };
  once(dispatcher, target, opts, begun, deadline, (first) => {
    if (first.retry && Date.now() < deadline) once(dispatcher, target, opts, begun, deadline, end);
    else end(first);
  });
}

interface Once {
  result: WebhookCallResult;
  /** Failed on a socket error before any answer: worth one more try. */
  retry: boolean;
}

/**
 * One request's handler, on undici's raw-header interface: the parsed one (onResponseStart) made
 * an object of every response's headers and trailers, where only a 429's Retry-After is read. A
 * class, not a literal of closures: one object per request.
 */
class Exchange implements Dispatcher.DispatchHandler {
  private settled = false;
  private abort: ((err: Error) => void) | null = null;
  private status = 0;
  private retryAfter: string | undefined;
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly timer: NodeJS.Timeout;
  /** Set while the request is handed to undici: an outcome reached meanwhile is told on a later turn. */
  dispatching = true;

  constructor(
    private readonly started: number,
    timeoutMs: number,
    deadlineMs: number,
    private readonly settle: (once: Once) => void,
  ) {
    this.timer = setTimeout(() => {
      this.finish(failed(this.started, `timeout after ${timeoutMs} ms`, false));
      // Before the connection is up there is nothing to abort yet: onConnect does it.
      this.abort?.(new Error('timeout'));
    }, Math.max(1, deadlineMs - Date.now()));
  }

  finish(result: WebhookCallResult, retry = false): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    if (this.dispatching) queueMicrotask(() => this.settle({ result, retry }));
    else this.settle({ result, retry });
  }

  onConnect(abort: (err?: Error) => void): void {
    this.abort = abort;
    if (this.settled) abort(new Error('timeout'));
  }

  onHeaders(status: number, rawHeaders: Buffer[]): boolean {
    this.status = status;
    if (status === 429) {
      for (let i = 0; i < rawHeaders.length; i += 2) {
        if (rawHeaders[i].toString('latin1').toLowerCase() === 'retry-after') this.retryAfter = rawHeaders[i + 1].toString('latin1');
      }
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.size >= MAX_BODY_BYTES) return true;
    this.chunks.push(chunk.subarray(0, MAX_BODY_BYTES - this.size));
    this.size += chunk.length;
    // Enough of the answer for the log; the rest is not worth waiting for.
    if (this.size >= MAX_BODY_BYTES) {
      this.finish(answered(this.started, this.status, this.body(), this.retryAfter));
      this.abort?.(new Error('response excerpt complete'));
    }
    return true;
  }

  onComplete(): void {
    this.finish(answered(this.started, this.status, this.body(), this.retryAfter));
  }

  onError(err: Error): void {
    this.finish(...failure(this.started, err, this.status !== 0));
  }

  private body(): string {
    return this.chunks.length === 1 ? this.chunks[0].toString('utf8') : Buffer.concat(this.chunks).toString('utf8');
  }
}

/** One request; `settled` is called once, never during this call. */
function once(dispatcher: Dispatcher, target: Target, opts: PostWebhookOptions, started: number, deadline: number, settled: (once: Once) => void): void {
  const exchange = new Exchange(started, opts.timeoutMs, deadline, settled);
  try {
    dispatcher.dispatch(
      {
        origin: target.origin,
        path: target.path,
        method: 'POST',
        // The caller's headers first: a spread at the start of a literal copies their object whole.
        headers: { ...opts.headers, 'content-type': 'application/json', 'user-agent': 'Postbox-Webhooks/1.0' },
        body: opts.body,
      },
      exchange,
    );
  } catch (err) {
    exchange.finish(...failure(started, err as Error, false));
  }
  exchange.dispatching = false;
}

/** What a failure before (or during) the answer means for the attempt. */
function failure(started: number, err: Error, answering: boolean): [WebhookCallResult, boolean] {
  const code = (err as NodeJS.ErrnoException).code;
  if (err instanceof CallError) return [failed(started, err.message, err.permanent), false];
  // A header value or URL undici refuses to send; no retry fixes that.
  if (code === 'UND_ERR_INVALID_ARG') return [failed(started, `invalid request: ${err.message}`, true), false];
  return [failed(started, code ? `connection failed: ${code}` : `connection failed: ${err.message}`, false), !answering && STALE_SOCKET.has(code ?? '')];
}
