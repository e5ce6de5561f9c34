import type { IncomingHttpHeaders } from 'node:http';
import { isIP } from 'node:net';
import type { Dispatcher } from 'undici';
import type { Dns } from '../../lib/dns.js';
import { receiverAgent, CallError } from './receivers.js';
import { refusal } from './ssrf.js';

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
  body: string;
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
  const target = { url, host, literal: isIP(host) !== 0 };
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

function answered(started: number, status: number, body: string, headers: IncomingHttpHeaders): WebhookCallResult {
  const ok = status >= 200 && status < 300;
  let error: string | null = null;
  if (!ok) error = status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`;
  return {
    ok,
    status,
    durationMs: Date.now() - started,
    excerpt: body ? body.slice(0, EXCERPT_CHARS) : null,
    error,
    retryAfterSeconds: status === 429 ? retryAfter(headers['retry-after']) : null,
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
 * it starts once the request has one of the origin's connections (receivers.ts), so requests
 * waiting behind a slow receiver's others are not failed for its slowness.
 */
export async function postWebhook(opts: PostWebhookOptions): Promise<WebhookCallResult> {
  const started = Date.now();
  const target = parseTarget(opts.url);
  if (typeof target === 'string') return failed(started, target, true);
  const { url, host } = target;
  // Node connects to a literal IP without calling lookup, so literals are checked here (and the
  // connected address once more in receivers.ts).
  if (target.literal && !opts.allowPrivate) {
    const refused = refusal(host);
    if (refused) return failed(started, refused, true);
  }
  const agent = receiverAgent(opts.dns, opts.allowPrivate, opts.connectionsPerOrigin ?? DEFAULT_CONNECTIONS, opts.timeoutMs);
  const slot = agent.slot(url.origin);
  const release = typeof slot === 'function' ? slot : await slot;
  try {
    const begun = Date.now();
    const deadline = begun + opts.timeoutMs;
    let result = await once(agent.dispatcher, url, opts, begun, deadline);
    if (result.retry && Date.now() < deadline) result = await once(agent.dispatcher, url, opts, begun, deadline);
    return result.result;
  } finally {
    release();
  }
}

interface Once {
  result: WebhookCallResult;
  /** Failed on a socket error before any answer: worth one more try. */
  retry: boolean;
}

function once(dispatcher: Dispatcher, url: URL, opts: PostWebhookOptions, started: number, deadline: number): Promise<Once> {
  return new Promise<Once>((resolve) => {
    let settled = false;
    let controller: Dispatcher.DispatchController | null = null;
    let status = 0;
    let headers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (result: WebhookCallResult, retry = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ result, retry });
    };
    const timeoutMs = Math.max(1, deadline - Date.now());
    const timer = setTimeout(() => {
      finish(failed(started, `timeout after ${opts.timeoutMs} ms`, false));
      // Before the connection is up there is nothing to abort yet: onRequestStart does it.
      controller?.abort(new Error('timeout'));
    }, timeoutMs);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        controller = c;
        if (settled) c.abort(new Error('timeout'));
      },
      onResponseStart(_c, statusCode, h) {
        status = statusCode;
        headers = h;
      },
      onResponseData(c, chunk) {
        if (size >= MAX_BODY_BYTES) return;
        chunks.push(chunk.subarray(0, MAX_BODY_BYTES - size));
        size += chunk.length;
        // Enough of the answer for the log; the rest is not worth waiting for.
        if (size >= MAX_BODY_BYTES) {
          finish(answered(started, status, Buffer.concat(chunks).toString('utf8'), headers));
          c.abort(new Error('response excerpt complete'));
        }
      },
      onResponseEnd() {
        finish(answered(started, status, Buffer.concat(chunks).toString('utf8'), headers));
      },
      onResponseError(_c, err) {
        finish(...failure(started, err, status !== 0));
      },
    };
    try {
      dispatcher.dispatch(
        {
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Postbox-Webhooks/1.0',
            ...opts.headers,
          },
          body: opts.body,
        },
        handler,
      );
    } catch (err) {
      finish(...failure(started, err as Error, false));
    }
  });
}

/** What a failure before (or during) the answer means for the attempt. */
function failure(started: number, err: Error, answering: boolean): [WebhookCallResult, boolean] {
  const code = (err as NodeJS.ErrnoException).code;
  if (err instanceof CallError) return [failed(started, err.message, err.permanent), false];
  // A header value or URL undici refuses to send; no retry fixes that.
  if (code === 'UND_ERR_INVALID_ARG') return [failed(started, `invalid request: ${err.message}`, true), false];
  return [failed(started, code ? `connection failed: ${code}` : `connection failed: ${err.message}`, false), !answering && STALE_SOCKET.has(code ?? '')];
}
