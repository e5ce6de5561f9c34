import { randomBytes } from 'node:crypto';
import type { HttpAnswer, TestServer } from '../support/server.js';
import { inviteLink, tokenOf, uniqueEmail } from '../users/helpers.js';

export interface Session {
  /** `pb_session=<value>`, for the Cookie header. */
  cookie: string;
  csrf: string;
  setCookie: string;
  body: any;
}

export const password = () => `pw-${randomBytes(8).toString('hex')}`;

async function call(url: string, init: RequestInit): Promise<HttpAnswer> {
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** A JSON request to the test server, optionally as a session (cookie, and its CSRF token unless `csrf: false`). */
export function send(
  s: TestServer,
  method: string,
  path: string,
  opts: { body?: unknown; session?: Session; csrf?: boolean; headers?: Record<string, string> } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.session) {
    headers.cookie = opts.session.cookie;
    if (opts.csrf !== false) headers['x-csrf-token'] = opts.session.csrf;
  }
  return call(`${s.url}${path}`, { method, headers, body: opts.body !== undefined ? JSON.stringify(opts.body) : undefined });
}

/** GraphQL as a session. */
export function gqlAs(s: TestServer, session: Session, query: string, variables: Record<string, unknown> = {}, csrf = true) {
  return send(s, 'POST', '/graphql', { session, csrf, body: { query, variables } });
}

/** Invites a user with `access` (role, domains, ...) and accepts with a password; answers the address, password and user id. */
export async function userWith(
  s: TestServer,
  access: Record<string, unknown>,
  token?: string,
): Promise<{ email: string; password: string; id: string }> {
  const email = uniqueEmail('login');
  const pw = password();
  const invited = await s.rest('POST', '/users', { token, body: { email, ...access } });
  if (invited.status !== 200) throw new Error(`invite failed: ${invited.status} ${invited.text}`);
  const link = await inviteLink(s, email);
  const res = await fetch(`${s.url}/invites/accept`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: tokenOf(link), name: 'Ada', last_name: 'Lovelace', password: pw }).toString(),
  });
  if (res.status !== 200) throw new Error(`accept failed: ${res.status} ${await res.text()}`);
  const users = await s.rest('GET', '/users?limit=100', { token });
  const id = users.body.data.find((u: { email: string }) => u.email === email).id;
  return { email, password: pw, id };
}

/** POST /auth/login; the session when it answered 200. */
export async function login(s: TestServer, fields: Record<string, string>): Promise<{ res: HttpAnswer; session: Session | null }> {
  const res = await send(s, 'POST', '/auth/login', { body: fields });
  if (res.status !== 200) return { res, session: null };
  const setCookie = res.headers.get('set-cookie') ?? '';
  const cookie = setCookie.split(';')[0];
  return { res, session: { cookie, csrf: res.body.csrf_token, setCookie, body: res.body } };
}

/** Logs in and fails the test if that does not work. */
export async function loginOk(s: TestServer, email: string, pw: string): Promise<Session> {
  const { res, session } = await login(s, { email, password: pw });
  if (!session) throw new Error(`login failed: ${res.status} ${res.text}`);
  return session;
}
