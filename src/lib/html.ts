const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** A minimal standalone page; every dynamic value must already be escaped by the caller. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 4rem auto; padding: 0 1rem; color: #222; }
label { display: block; margin: 1rem 0 .25rem; }
input[type=text] { width: 100%; padding: .5rem; box-sizing: border-box; }
button { margin-top: 1.5rem; padding: .5rem 1.25rem; }
.error { color: #b00020; font-size: .9rem; }
</style>
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
 * tracking link): kept out of caches and out of Referer headers.
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
    .send(htmlPage(title, body));
}
