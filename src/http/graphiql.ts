import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONSOLE_DIST } from './console.js';

/**
 * The GraphQL IDE a browser gets at GET /graphql: GraphiQL, one HTML page with every script,
 * style, worker and icon inlined, so it works on an install with no way out to the internet
 * (Apollo's landing page loads Sandbox from a CDN). It is rendered with the console, at build
 * (console/graphiql.mjs), into console/dist/graphiql.html. Every other request to /graphql is Apollo's.
 */
export interface GraphiQLPage {
  html: Buffer;
  gzip: Buffer;
  etag: string;
  headers: Record<string, string>;
}

/**
 * Only the page's own inline script (by hash), the workers it builds from blob: URLs, its
 * inline styles and data: images/fonts, and requests to this origin. Monaco sets style
 * attributes, which a hash cannot allow, hence 'unsafe-inline' for styles only.
 */
function contentSecurityPolicy(scriptHash: string): string {
  return [
    "default-src 'none'",
    `script-src 'sha256-${scriptHash}'`,
    'worker-src blob:',
    "style-src 'unsafe-inline'",
    'img-src data: blob:',
    'font-src data:',
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

async function render(file: string): Promise<GraphiQLPage | null> {
  const text = await readFile(file, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (text === null) return null;
  const open = text.indexOf('<script>');
  const close = text.indexOf('</script>');
  // The hash below allows exactly one script element; a second would be blocked by the CSP.
  if (open < 0 || close < open || text.indexOf('</script>', close + 1) >= 0) {
    throw new Error('GraphiQL page: expected exactly one inline script');
  }
  const scriptHash = createHash('sha256').update(text.slice(open + '<script>'.length, close)).digest('base64');
  const html = Buffer.from(text);
  return {
    html,
    gzip: await promisify(gzip)(html),
    etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': contentSecurityPolicy(scriptHash),
      // The same URL answers JSON to other Accept headers; caches must keep them apart.
      vary: 'Accept, Accept-Encoding',
      // Revalidated on each visit (a 304 when unchanged), so an upgrade shows at once.
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
  };
}

interface AcceptRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
  order: number;
}

/** Splits on `sep` outside double quotes. */
function split(value: string, sep: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && quoted) i++;
    else if (c === sep && !quoted) {
      parts.push(value.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(value.slice(start));
  return parts;
}

function mediaRange(text: string, order: number): AcceptRange | null {
  const [full, ...rest] = split(text, ';').map((p) => p.trim());
  const slash = full.indexOf('/');
  if (slash <= 0) return null;
  const params: Record<string, string> = {};
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq <= 0) continue;
    params[p.slice(0, eq).trim().toLowerCase()] = p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
  }
  const q = params.q === undefined ? 1 : Number.parseFloat(params.q);
  delete params.q;
  return { type: full.slice(0, slash).toLowerCase(), subtype: full.slice(slash + 1).toLowerCase(), params, q: Number.isNaN(q) ? 0 : q, order };
}

/** What Apollo may answer a GET with, in its own order of preference. */
const OFFERED = [
  'application/json; charset=utf-8',
  'application/graphql-response+json; charset=utf-8',
  'multipart/mixed; deferSpec=20220824',
  'multipart/mixed; incrementalSpec=v0.2',
  'multipart/mixed',
  'text/html',
].map((t, i) => mediaRange(t, i)!);

/**
 * Apollo's own test for serving its landing page (`prefersHTML`: a GET whose Accept header,
 * negotiated the way the `negotiator` package does, picks text/html over every type Apollo
 * can answer), so exactly the requests that got Apollo's landing page get GraphiQL, and every
 * other GET still reaches Apollo.
 */
export function prefersHtml(method: string, accept: string | undefined): boolean {
  if (method !== 'GET' || !accept) return false;
  const ranges = split(accept, ',').map((part, i) => mediaRange(part.trim(), i)).filter((r) => r !== null);
  const ranked = OFFERED.map((offered, index) => {
    // The most specific range that matches, then the higher q, then the later one.
    let best = { q: 0, s: 0, o: -1, index };
    for (const range of ranges) {
      let s = 0;
      if (range.type === offered.type) s |= 4;
      else if (range.type !== '*') continue;
      if (range.subtype === offered.subtype) s |= 2;
      else if (range.subtype !== '*') continue;
      const keys = Object.keys(range.params);
      if (keys.length) {
        if (!keys.every((k) => range.params[k] === '*' || range.params[k].toLowerCase() === (offered.params[k] ?? '').toLowerCase())) continue;
        s |= 1;
      }
      if ((best.s - s || best.q - range.q || best.o - range.order) < 0) best = { q: range.q, s, o: range.order, index };
    }
    return best;
  })
    .filter((p) => p.q > 0)
    .sort((a, b) => b.q - a.q || b.s - a.s || a.o - b.o || a.index - b.index);
  return ranked.length > 0 && OFFERED[ranked[0].index].subtype === 'html';
}

/**
 * An onRequest hook for the /graphql route: answers a browser's GET with the IDE and lets
 * everything else through to Apollo. Read and compressed once, on the first such request (a
 * moment of CPU, then kept in memory with its gzipped copy), not at start: most processes, and
 * every test file, never serve it. Without the built page (the console was not built) there is no
 * IDE to serve: 404.
 */
export function graphiqlHook(opts: { introspection: boolean }) {
  const file = path.join(CONSOLE_DIST, 'graphiql.html');
  let page: Promise<GraphiQLPage | null> | null = null;
  return async (req: FastifyRequest, reply: FastifyReply) => {
    if (!prefersHtml(req.method, req.headers.accept)) return;
    // With introspection off the IDE cannot load the schema (no docs, no completion), and an
    // operator who turned it off is hiding the schema: there is no IDE to serve, so 404.
    if (!opts.introspection) return reply.callNotFound();
    page ??= render(file).catch((err) => {
      page = null;
      throw err;
    });
    const built = await page;
    if (!built) {
      page = null;
      return reply.callNotFound();
    }
    const { html, gzip: gzipped, etag, headers } = built;
    reply.headers(headers).header('etag', etag);
    if (req.headers['if-none-match'] === etag) return reply.status(304).send();
    if (/\bgzip\b(?!\s*;\s*q=0(?:\.0*)?\s*(?:,|$))/i.test(req.headers['accept-encoding'] ?? '')) {
      return reply.header('content-encoding', 'gzip').send(gzipped);
    }
    return reply.send(html);
  };
}
