import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Dns } from '../../lib/dns.js';
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
}

const MAX_BODY_BYTES = 64 * 1024;
const EXCERPT_CHARS = 1000;

/** A failure raised before any response: it carries whether a retry could help. */
class CallError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** URL check shared by the API (validation) and the delivery: http(s) with a host, nothing else. */
export function webhookUrlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'invalid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http and https URLs are allowed';
  if (!url.hostname) return 'the URL has no host';
  return null;
}

/**
 * The socket's address lookup, through the service's resolver. The check runs on the very
 * addresses handed to connect(), so a name that resolved publicly a moment ago and now points
 * at loopback (DNS rebinding) is refused: there is no second resolution to win a race against.
 */
function guardedLookup(dns: Dns, allowPrivate: boolean): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    dns
      .a(hostname)
      .then((addresses) => {
        if (!addresses.length) throw new CallError(`DNS: no address for ${hostname}`, true);
        const usable = allowPrivate ? addresses : addresses.filter((a) => !refusal(a));
        if (!usable.length) throw new CallError(refusal(addresses[0])!, true);
        if (options?.all) callback(null, usable.map((address) => ({ address, family: 4 })));
        else callback(null, usable[0], 4);
      })
      .catch((err: unknown) => {
        callback(err instanceof CallError ? err : new CallError(`DNS: ${(err as Error).message} for ${hostname}`, true));
      });
  }) as LookupFunction;
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

function answered(started: number, status: number, body: string, headers: http.IncomingHttpHeaders): WebhookCallResult {
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

/** One POST of a webhook body; never throws, never follows redirects. */
export async function postWebhook(opts: PostWebhookOptions): Promise<WebhookCallResult> {
  const started = Date.now();
  const problem = webhookUrlProblem(opts.url);
  if (problem) return failed(started, problem, true);
  const url = new URL(opts.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // Node connects to a literal IP without calling lookup, so literals are checked here.
  if (isIP(host) && !opts.allowPrivate) {
    const refused = refusal(host);
    if (refused) return failed(started, refused, true);
  }

  return new Promise<WebhookCallResult>((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (result: WebhookCallResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const body = Buffer.from(opts.body, 'utf8');
    let request: http.ClientRequest;
    try {
      request = send(url, host, body, opts, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => finish(answered(started, res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'), res.headers));
        res.on('data', (chunk: Buffer) => {
          if (size >= MAX_BODY_BYTES) return;
          chunks.push(chunk.subarray(0, MAX_BODY_BYTES - size));
          size += chunk.length;
          // Enough of the answer for the log; the rest is not worth waiting for.
          if (size >= MAX_BODY_BYTES) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('error', done);
        res.on('close', done);
      });
    } catch (err) {
      // Only a malformed request (a header value node refuses) throws here; no retry fixes that.
      return finish(failed(started, `invalid request: ${(err as Error).message}`, true));
    }
    timer = setTimeout(() => {
      finish(failed(started, `timeout after ${opts.timeoutMs} ms`, false));
      request.destroy();
    }, opts.timeoutMs);
    request.on('error', (err: Error) => {
      const permanent = err instanceof CallError ? err.permanent : false;
      finish(failed(started, err instanceof CallError ? err.message : connectionError(err), permanent));
    });
    request.end(body);
  });
}

function send(
  url: URL,
  host: string,
  body: Buffer,
  opts: PostWebhookOptions,
  onResponse: (res: http.IncomingMessage) => void,
): http.ClientRequest {
  return (url.protocol === 'https:' ? https : http).request(
    {
      protocol: url.protocol,
      hostname: host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      agent: false,
      lookup: guardedLookup(opts.dns, opts.allowPrivate),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Postbox-Webhooks/1.0',
        ...opts.headers,
        'content-length': String(body.length),
        connection: 'close',
      },
    },
    onResponse,
  );
}

function connectionError(err: Error): string {
  const code = (err as NodeJS.ErrnoException).code;
  return code ? `connection failed: ${code}` : `connection failed: ${err.message}`;
}
