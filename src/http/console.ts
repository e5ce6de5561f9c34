import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * The console (console/, a React SPA over the public GraphQL API) as static files from
 * console/dist, built at install time (`npm run console:build`). It uses hash routing, so `/` and
 * `/assets/*` are its only paths and no other route is shadowed.
 *
 * The CSP names no other origin: scripts and styles are the bundle's own files; inline styles are
 * allowed because email previews (iframe srcdoc, which inherits this policy) are styled inline,
 * and chart.js and React set style attributes; images only from here or data: URLs, so a previewed
 * email cannot load a tracking pixel.
 */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

/** Vite's output names: a flat folder, no traversal possible. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

const COMMON = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

interface Loaded {
  body: Buffer;
  gzip: Buffer | null;
  etag: string;
  mtimeMs: number;
}

/** The project root: the nearest folder above this file with a package.json (src/ or dist/src/ alike). */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/** Where `npm run console:build` writes the console and the GraphiQL page. */
export const CONSOLE_DIST = path.join(projectRoot(), 'console', 'dist');

export function registerConsole(app: FastifyInstance, distDir = CONSOLE_DIST): void {
  // Files are read once and kept (with their gzip form) until their modification time changes.
  const cache = new Map<string, Loaded>();

  async function load(file: string): Promise<Loaded | null> {
    let mtimeMs: number;
    try {
      const info = await stat(file);
      if (!info.isFile()) return null;
      mtimeMs = info.mtimeMs;
    } catch {
      return null;
    }
    const known = cache.get(file);
    if (known && known.mtimeMs === mtimeMs) return known;
    const body = await readFile(file);
    const compressible = /\.(js|css|html|svg|json|map)$/.test(file) && body.length > 1024;
    const loaded: Loaded = {
      body,
      gzip: compressible ? await promisify(gzip)(body) : null,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      mtimeMs,
    };
    cache.set(file, loaded);
    return loaded;
  }

  function send(req: FastifyRequest, reply: FastifyReply, file: Loaded, headers: Record<string, string>) {
    reply.headers({ ...COMMON, ...headers, etag: file.etag, vary: 'Accept-Encoding' });
    if (req.headers['if-none-match'] === file.etag) return reply.status(304).send();
    const accepts = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (file.gzip && accepts) return reply.header('content-encoding', 'gzip').send(file.gzip);
    return reply.send(file.body);
  }

  app.get('/', async (req, reply) => {
    const index = await load(path.join(distDir, 'index.html'));
    if (!index) {
      return reply
        .status(503)
        .headers({ ...COMMON, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' })
        .send('The console is not built. Run `npm run console:build` (npm install does it), then reload.\n');
    }
    // Revalidated on each visit, so a new build shows at once; the assets it names are immutable.
    return send(req, reply, index, {
      'content-type': TYPES['.html'],
      'content-security-policy': CONSOLE_CSP,
      'cache-control': 'no-cache',
    });
  });

  app.get<{ Params: { '*': string } }>('/assets/*', async (req, reply) => {
    const name = req.params['*'];
    const type = TYPES[path.extname(name)];
    const file = ASSET_NAME.test(name) && type ? await load(path.join(distDir, 'assets', name)) : null;
    if (!file) return reply.status(404).send({ message: 'Resource not found.' });
    // Vite puts a content hash in every asset name: a changed file is a new URL.
    return send(req, reply, file, { 'content-type': type, 'cache-control': 'public, max-age=31536000, immutable' });
  });
}
