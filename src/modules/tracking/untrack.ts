import { escapeHtml } from '../../lib/html.js';
import { readToken } from './tokens.js';

/** A transparent 1×1 image: what an open pixel shows once it no longer points at us. */
const BLANK_PIXEL = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
/** How far back from `/t/o/` or `/t/c/` a link of ours may start (`https://` and the tracking host). */
const HOST_REACH = 512;
/** Longest token read: a click token holds its target URL. */
const TOKEN_REACH = 16_384;
/** Links rewritten at most per body; past it the rest stay as they are. */
const LINKS_MAX = 10_000;
const TOKEN_CHAR = /[A-Za-z0-9_.-]/;

/** The link of ours around the marker at `at` (`/t/o/` or `/t/c/`): where it starts and ends, and its token. */
function linkAt(body: string, at: number): { start: number; end: number; token: string } | null {
  const from = Math.max(0, at - HOST_REACH);
  const before = body.slice(from, at);
  const offset = before.lastIndexOf('http');
  if (offset === -1 || !/^https?:\/\/[^\s"'<>]*$/.test(before.slice(offset))) return null;
  const start = from + offset;
  let end = at + 5;
  const stop = Math.min(body.length, end + TOKEN_REACH);
  while (end < stop && TOKEN_CHAR.test(body[end])) end++;
  return { start, end, token: body.slice(at + 5, end) };
}

/**
 * An email's body as its sender wrote it, for whoever reads the email back (the email log, the
 * console's email page): open pixels of ours show a blank image and click links of ours point
 * at their targets again, so reading an email never records an open or a click nor fires their
 * webhooks (test/tracking/untracked.test.ts). Only links signed with this install's secret change;
 * the copy the capture transport kept (`content`) keeps the bytes as sent. Linear in the body:
 * each marker is looked at within fixed reaches, and at most LINKS_MAX are rewritten.
 */
export function untrack(appSecret: string, body: string | null, kind: 'html' | 'text'): string | null {
  if (body === null || !body.includes('/t/')) return body;
  let out = '';
  let from = 0;
  let rewritten = 0;
  for (let at = body.indexOf('/t/'); at !== -1 && rewritten < LINKS_MAX; at = body.indexOf('/t/', at + 3)) {
    const type = body[at + 3];
    if ((type !== 'o' && type !== 'c') || body[at + 4] !== '/' || at < from) continue;
    const link = linkAt(body, at);
    if (!link || link.start < from) continue;
    const token = readToken(appSecret, type === 'o' ? 'open' : 'click', link.token);
    if (!token) continue;
    const replacement = type === 'o' ? BLANK_PIXEL : kind === 'html' ? escapeHtml(token.url!) : token.url!;
    out += body.slice(from, link.start) + replacement;
    from = link.end;
    at = link.end - 3;
    rewritten++;
  }
  return out + body.slice(from);
}
