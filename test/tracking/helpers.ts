import type { TestServer } from '../support/server.js';

export const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
export const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
export const GMAIL_PROXY = 'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)';

export function sql<T = any>(s: TestServer, query: string, params: unknown[] = []): Promise<T[]> {
  return s.app.services.orm.em.fork().execute(query, params) as Promise<T[]>;
}

export async function until<T>(probe: () => Promise<T | null | undefined | false>, what: string, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function unQuotedPrintable(body: string): string {
  const bytes = Buffer.from(body.replace(/=\r?\n/g, ''), 'latin1');
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    const hex = bytes.subarray(i + 1, i + 3).toString('latin1');
    if (bytes[i] === 0x3d && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 2;
    } else out.push(bytes[i]);
  }
  return Buffer.from(out).toString('utf8');
}

function decodePart(headers: string, body: string): string {
  const encoding = /^content-transfer-encoding:\s*([\w-]+)/im.exec(headers)?.[1].toLowerCase();
  if (encoding === 'quoted-printable') return unQuotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

/** The text and html bodies and the top-level headers of a raw MIME message, decoded. */
export function parseMime(raw: string): { headers: string; html: string | null; text: string | null } {
  const split = (chunk: string) => {
    const at = chunk.indexOf('\r\n\r\n');
    return { head: chunk.slice(0, at).replace(/\r\n[ \t]+/g, ' '), body: chunk.slice(at + 4) };
  };
  const top = split(raw);
  const out = { headers: top.head, html: null as string | null, text: null as string | null };
  const walk = (head: string, body: string) => {
    const type = /^content-type:\s*([\w/-]+)/im.exec(head)?.[1].toLowerCase() ?? 'text/plain';
    const boundary = /boundary="?([^";\r\n]+)"?/i.exec(head)?.[1];
    if (type.startsWith('multipart/') && boundary) {
      const pieces = body.split(`--${boundary}`).slice(1);
      for (const piece of pieces) {
        if (piece.startsWith('--')) break;
        const part = split(piece.replace(/^\r\n/, ''));
        walk(part.head, part.body.replace(/\r\n$/, ''));
      }
    } else if (type === 'text/html') out.html = decodePart(head, body);
    else if (type === 'text/plain' && !/content-disposition:\s*attachment/i.test(head)) out.text = decodePart(head, body);
  };
  walk(top.head, top.body);
  return out;
}

export interface Sent {
  emailId: string;
  raw: string;
  headers: string;
  html: string | null;
  text: string | null;
}

/** Sends one email through POST /v1/email and returns it as the capture transport stored it. */
export async function sendAndCapture(s: TestServer, body: Record<string, unknown>): Promise<Sent> {
  const res = await s.rest('POST', '/email', { body });
  if (res.status !== 202) throw new Error(`send failed: ${res.status} ${res.text}`);
  const messageId = res.headers.get('x-message-id')!;
  const [email] = await sql<{ id: string }>(s, 'select id from emails where message_id = ?', [messageId]);
  const raw = await until(async () => {
    const rows = await sql<{ raw: string | null }>(s, 'select raw from captured_mails where email_id = ?', [email.id]);
    return rows[0]?.raw;
  }, `the captured mail of ${email.id}`);
  // The capture transport stores the mail before the delivery is recorded; a tracking hit before
  // that record finds the email still queued and is not counted (it is not trackable yet).
  await until(async () => {
    const rows = await sql<{ status: string }>(s, 'select status from emails where id = ?', [email.id]);
    return rows[0]?.status !== 'queued' || undefined;
  }, `the delivery of ${email.id} recorded`);
  return { emailId: email.id, raw, ...parseMime(raw) };
}

/** Tracking URLs point at PUBLIC_URL; the test server answers on its own address. */
export function local(s: TestServer, url: string): string {
  const u = new URL(url);
  return `${s.url}${u.pathname}${u.search}`;
}

export function trackingLinks(content: string, kind: 'o' | 'c' | 'u'): string[] {
  return [...content.matchAll(new RegExp(`https?://[^\\s"'<>]+/t/${kind}/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+`, 'g'))].map((m) => m[0]);
}

export function hit(s: TestServer, url: string, init: RequestInit & { ua?: string } = {}): Promise<Response> {
  const { ua, ...rest } = init;
  return fetch(local(s, url), { redirect: 'manual', ...rest, headers: { 'user-agent': ua ?? CHROME, ...(rest.headers ?? {}) } });
}

export async function activities(s: TestServer, emailId: string) {
  return sql<{ type: string; data: any; account_id: string; domain_id: string }>(
    s,
    'select type, data, account_id, domain_id from activities where email_id = ? order by created_at, id',
    [emailId],
  );
}

export const interactions = async (s: TestServer, emailId: string) =>
  (await activities(s, emailId)).filter((a) => !['queued', 'sent', 'delivered'].includes(a.type));
