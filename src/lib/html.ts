import { createHash } from 'node:crypto';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

const PAGE_STYLE = `
body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 4rem auto; padding: 0 1rem; color: #222; }
label { display: block; margin: 1rem 0 .25rem; }
input[type=text] { width: 100%; padding: .5rem; box-sizing: border-box; }
button { margin-top: 1.5rem; padding: .5rem 1.25rem; }
.error { color: #b00020; font-size: .9rem; }
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
<h1>${escapeHtml(title)}</h1>
${body}
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
