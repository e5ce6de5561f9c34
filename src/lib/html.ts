import { createHash } from 'node:crypto';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

// The console's look (console/src/style.css: its fonts, colours and controls), so a page reached
// from a mail reads as the same product.
const PAGE_STYLE = `
* { box-sizing: border-box; }
body { margin: 0; font-family: system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; font-size: 15px; color: #1f2937; background: #f9fafb; }
.top { background: #111827; color: #fff; padding: .6rem 1rem; font-weight: 700; }
main { max-width: 28rem; margin: 3rem auto; padding: 1.2rem 1.4rem; background: #fff; border: 1px solid #e5e7eb; border-radius: 8px; }
h1 { font-size: 1.4rem; margin: 0 0 .8rem; }
a { color: #2563eb; }
label { display: block; margin: 1rem 0 .25rem; font-size: .9rem; }
input { width: 100%; font: inherit; padding: .45rem .55rem; border: 1px solid #d1d5db; border-radius: 6px; }
button { margin-top: 1.5rem; font: inherit; padding: .45rem 1.1rem; border-radius: 6px; border: 1px solid #2563eb; background: #2563eb; color: #fff; cursor: pointer; }
.error { color: #b91c1c; font-size: .9rem; }
`;

/**
 * The policy of a page behind a secret link: nothing loads but its own inline style (by hash),
 * forms post only to this service, and no other site may frame it (a framed form could be
 * clickjacked into accepting, unsubscribing or setting a password).
 */
const SECRET_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** A minimal standalone page; every dynamic value must already be escaped by the caller. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<header class="top">Postbox</header>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

/**
 * Answers a page reached through a link whose token is the credential (an invitation, a
 * tracking link): kept out of caches and out of Referer headers, never framed, loading nothing
 * (test/auth/link-pages.test.ts).
 */
export function sendSecretLinkPage(
  reply: { status(code: number): any },
  status: number,
  title: string,
  body: string,
): unknown {
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('content-security-policy', SECRET_PAGE_CSP)
    .header('x-frame-options', 'DENY')
    .send(htmlPage(title, body));
}
