import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the receiver got, with the outcome of checking both signatures. */
export interface ReceivedRequest {
  method: string;
  path: string;
  /** Path plus query string, as sent. */
  target: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  /** The parsed JSON body, or undefined when it is not JSON. */
  json: any;
  at: Date;
  /** The status the receiver answered (or was about to, if the client gave up first). */
  answered: number;
  /** `Signature`: hex HMAC-SHA256 of the raw body. */
  signatureOk: boolean;
  /** `webhook-signature`: some `v1,<base64>` over `webhook-id.webhook-timestamp.body`. */
  standardOk: boolean;
  /** Both signatures verify with the same known secret. */
  verified: boolean;
  /** The secret that verified it, if any. */
  secret: string | null;
}

export interface Behaviour {
  /** One status for every request, or a sequence consumed in order (the last one then repeats). */
  status?: number | number[];
  /** Wait this long before answering (to provoke timeouts). */
  delayMs?: number;
  /** Sent as the Retry-After header (seconds or an HTTP date). */
  retryAfter?: number | string;
  body?: string;
  headers?: Record<string, string>;
}

/** Secrets to try for a request: by path, or computed from the request itself. */
export type SecretLookup = (path: string, json: any, headers: http.IncomingHttpHeaders) => string | string[] | null | undefined;

export interface Receiver {
  /** `http://127.0.0.1:<port>` */
  base: string;
  port: number;
  /** The full URL of a path on this receiver. */
  url(path?: string): string;
  /** Every request so far, oldest first. */
  requests: ReceivedRequest[];
  /** Requests to one path (query string ignored). */
  received(path?: string): ReceivedRequest[];
  /** How to answer a path; '*' is the fallback. */
  respond(path: string, behaviour: Behaviour): void;
  /** Secrets that verify requests to a path; '*' applies to every path. */
  secretFor(path: string, ...secrets: string[]): void;
  /** Resolves with the requests once `predicate` holds for them, or rejects at the deadline. */
  waitFor(predicate: (all: ReceivedRequest[]) => boolean, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Forgets requests and behaviours (secrets are kept). */
  reset(): void;
  close(): Promise<void>;
}

function safeEq(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/** Verifies both headers the way a careful receiver would (constant-time compares). */
export function verifySignatures(secret: string, raw: string, headers: http.IncomingHttpHeaders) {
  const sig = String(headers['signature'] ?? '');
  const hex = createHmac('sha256', secret).update(raw, 'utf8').digest('hex');
  const signatureOk = sig !== '' && safeEq(sig, hex);
  const id = String(headers['webhook-id'] ?? '');
  const ts = String(headers['webhook-timestamp'] ?? '');
  const expected = createHmac('sha256', secret).update(`${id}.${ts}.${raw}`, 'utf8').digest('base64');
  const offered = String(headers['webhook-signature'] ?? '')
    .split(' ')
    .filter((p) => p.startsWith('v1,'))
    .map((p) => p.slice(3));
  const standardOk = id !== '' && /^\d+$/.test(ts) && offered.some((o) => safeEq(o, expected));
  return { signatureOk, standardOk };
}

/** A real HTTP receiver on 127.0.0.1 (port chosen by the OS) that records and verifies requests. */
export async function startReceiver(opts: { secrets?: SecretLookup } = {}): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const behaviours = new Map<string, Behaviour>();
  const served = new Map<string, number>();
  const secrets = new Map<string, string[]>();
  const timers = new Set<NodeJS.Timeout>();

  function candidates(path: string, json: any, headers: http.IncomingHttpHeaders): string[] {
    const found = opts.secrets?.(path, json, headers);
    const extra = found == null ? [] : Array.isArray(found) ? found : [found];
    return [...(secrets.get(path) ?? []), ...(secrets.get('*') ?? []), ...extra];
  }

  function nextStatus(path: string, b: Behaviour): number {
    const n = served.get(path) ?? 0;
    served.set(path, n + 1);
    if (Array.isArray(b.status)) return b.status[Math.min(n, b.status.length - 1)] ?? 200;
    return b.status ?? 200;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const target = req.url ?? '/';
      const path = target.split('?')[0];
      let json: any;
      try {
        json = JSON.parse(raw);
      } catch {
        json = undefined;
      }
      const b = behaviours.get(path) ?? behaviours.get('*') ?? {};
      const status = nextStatus(path, b);
      let result = { signatureOk: false, standardOk: false, verified: false, secret: null as string | null };
      for (const secret of candidates(path, json, req.headers)) {
        const r = verifySignatures(secret, raw, req.headers);
        if (r.signatureOk && r.standardOk) {
          result = { ...r, verified: true, secret };
          break;
        }
        if (r.signatureOk || r.standardOk) result = { ...r, verified: false, secret: null };
      }
      requests.push({ method: req.method ?? '', path, target, headers: req.headers, raw, json, at: new Date(), answered: status, ...result });
      const answer = () => {
        if (res.destroyed) return;
        const headers: Record<string, string> = { 'content-type': 'text/plain', ...b.headers };
        if (b.retryAfter !== undefined) headers['retry-after'] = String(b.retryAfter);
        res.writeHead(status, headers);
        res.end(b.body ?? (status >= 200 && status < 300 ? 'ok' : `status ${status}`));
      };
      if (!b.delayMs) return answer();
      const timer = setTimeout(() => {
        timers.delete(timer);
        answer();
      }, b.delayMs);
      timers.add(timer);
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;

  return {
    base,
    port,
    url: (p = '/') => `${base}${p.startsWith('/') ? p : `/${p}`}`,
    requests,
    received: (p) => (p === undefined ? [...requests] : requests.filter((r) => r.path === p)),
    respond(p, behaviour) {
      behaviours.set(p, behaviour);
      served.delete(p);
    },
    secretFor(p, ...list) {
      secrets.set(p, [...(secrets.get(p) ?? []), ...list]);
    },
    async waitFor(predicate, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(requests)) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met within ${timeoutMs} ms (${requests.length} requests)`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return [...requests];
    },
    reset() {
      requests.length = 0;
      behaviours.clear();
      served.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
