import { mailsTo, type Mail } from '../support/mail.js';
import { randomBytes } from 'node:crypto';
import { type TestServer } from '../support/server.js';

export const USER_KEYS = [
  '2fa', 'avatar', 'created_at', 'domains', 'email', 'id', 'last_name', 'name', 'permissions', 'role', 'templates', 'updated_at',
];
export const INVITE_KEYS = [
  'created_at', 'data', 'email', 'id', 'permissions', 'requires_periodic_password_change', 'role', 'updated_at',
];


export const uniqueEmail = (tag = 'u') => `${tag}-${randomBytes(4).toString('hex')}@example.test`;


/** The accept link of the newest invite mail, pointed at the test server (PUBLIC_URL says localhost). */
export async function inviteLink(s: TestServer, email: string, count = 1): Promise<string> {
  const [mail] = await mailsTo(s, email, count);
  if (!mail) throw new Error(`no invite mail for ${email}`);
  const m = /https?:\/\/\S+\/invites\/accept\?token=[^\s"<]+/.exec(mail.text);
  if (!m) throw new Error(`no link in: ${mail.text}`);
  const u = new URL(m[0]);
  return `${s.url}${u.pathname}${u.search}`;
}

export const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

/** Submits the accept form as a browser would (form-urlencoded). */
export async function submitForm(s: TestServer, fields: Record<string, string>) {
  const res = await fetch(`${s.url}/invites/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** Invites with `body` (as `token`'s account), accepts through the form, answers the new user from /v1. */
export async function inviteAndAccept(s: TestServer, body: Record<string, unknown>, token?: string) {
  const invited = await s.rest('POST', '/users', { body, token });
  if (invited.status !== 200) throw new Error(`invite failed: ${invited.status} ${invited.text}`);
  const link = await inviteLink(s, body.email as string);
  const accepted = await submitForm(s, { token: tokenOf(link), name: 'Ada', last_name: 'Lovelace' });
  if (accepted.status !== 200) throw new Error(`accept failed: ${accepted.status} ${accepted.text}`);
  const list = await s.rest('GET', '/users?limit=100', { token });
  const user = list.body.data.find((u: { email: string }) => u.email === body.email);
  if (!user) throw new Error('accepted user not listed');
  return { invite: invited.body.data, user };
}

export { mailsTo, type Mail };
