import { mailsTo, type Mail } from '../support/mail.js';
import pg from 'pg';
import { type TestServer } from '../support/server.js';

export const IDENTITY_KEYS = [
  'add_note',
  'domain',
  'email',
  'id',
  'is_verified',
  'name',
  'personal_note',
  'reply_to_email',
  'reply_to_name',
  'resends',
];
export const DOMAIN_KEYS = ['created_at', 'id', 'name', 'updated_at'];
export const OFF_DOMAIN = 'The email must be an address at the selected domain or one of its subdomains.';

let seq = 0;
/** A fresh address at the domain, unique within the test file. */
export function addressAt(domain: { name: string }, local = 'sender'): string {
  seq += 1;
  return `${local}${seq}@${domain.name}`;
}

export async function createIdentity(
  s: TestServer,
  domain: { id: string; name: string },
  extra: Record<string, unknown> = {},
  token?: string,
) {
  const res = await s.rest('POST', '/identities', { token, body: { domain_id: domain.id, email: addressAt(domain), ...extra } });
  if (res.status !== 201) throw new Error(`identity create failed: ${res.status} ${res.text}`);
  return res.body.data;
}



export function confirmLinkIn(mail: Mail): string {
  const m = /https?:\/\/\S+\/confirm\/identity\?token=\S+/.exec(mail.text);
  if (!m) throw new Error(`no confirmation link in: ${mail.text}`);
  return m[0];
}

/** The link's path and query, opened against the test server. */
export async function open(s: TestServer, link: string) {
  const u = new URL(link);
  const res = await fetch(`${s.url}${u.pathname}${u.search}`);
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

export async function sql<T = any>(s: TestServer, text: string, params: unknown[] = []): Promise<T[]> {
  const db = new pg.Client({ connectionString: s.dbUrl });
  await db.connect();
  try {
    return (await db.query(text, params)).rows as T[];
  } finally {
    await db.end();
  }
}

export { mailsTo, type Mail };
