import { graphql } from './gql';
import { operationId } from './operation-id';

/**
 * Who is signed in. The console signs in with the session cookie (POST /auth/login) and sends the
 * session's CSRF token on every request that changes something. An API token pasted on the login
 * page (kept in sessionStorage, gone with the tab) is the other way in: the console is then just
 * one more GraphQL client with a bearer token.
 */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
  role: string;
  permissions: string[];
}

export interface Session {
  user: SessionUser | null;
  csrf: string | null;
  token: string | null;
  /** The password is past its allowed age: only /auth routes answer until it is changed. */
  passwordChangeRequired?: boolean;
}

const TOKEN_KEY = 'pb_token';
let current: Session = { user: null, csrf: null, token: sessionStorage.getItem(TOKEN_KEY) };

export function session(): Session {
  return current;
}

/** Headers that authenticate a request: the bearer token, or the session's CSRF token (the cookie goes by itself). */
export function authHeaders(): Record<string, string> {
  if (current.token) return { authorization: `Bearer ${current.token}` };
  if (current.csrf) return { 'x-csrf-token': current.csrf };
  return {};
}

async function json(res: Response): Promise<Record<string, unknown>> {
  try {
    return (await res.json()) as Record<string, unknown>;
  } catch {
    return {};
  }
}

function fromBody(body: Record<string, unknown>): Session {
  return { user: body.user as SessionUser, csrf: String(body.csrf_token ?? ''), token: null, passwordChangeRequired: body.password_change_required === true };
}

/** The signed-in state on load: a stored token, else the session cookie (GET /auth/session). */
export async function restore(): Promise<Session> {
  if (current.token) return current;
  const res = await fetch('/auth/session', { credentials: 'same-origin' });
  current = res.ok ? fromBody(await json(res)) : { user: null, csrf: null, token: null };
  return current;
}

export interface LoginAnswer {
  ok: boolean;
  message?: string;
  totpRequired?: boolean;
  passwordChangeRequired?: boolean;
}

export async function login(email: string, password: string, totp?: string): Promise<LoginAnswer> {
  const res = await fetch('/auth/login', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(totp ? { email, password, totp } : { email, password }),
  });
  const body = await json(res);
  if (!res.ok) {
    return { ok: false, message: String(body.message ?? `Sign-in failed (${res.status}).`), totpRequired: body.totp_required === true };
  }
  current = fromBody(body);
  return { ok: true, passwordChangeRequired: body.password_change_required === true };
}

/** Asks for a password reset link by mail (always accepted, whether or not the address is known). */
export async function requestReset(email: string): Promise<boolean> {
  const res = await fetch('/auth/password-reset', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  return res.ok;
}

const TokenCheck = graphql(`
  query ConsoleTokenCheck {
    whoami { account_id }
  }
`);

/** Uses an API token instead of a session (kept for this tab only). */
export async function useToken(token: string): Promise<LoginAnswer> {
  const res = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    // By id, as every console operation (client.ts).
    body: JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: operationId(TokenCheck) } } }),
  });
  const body = await json(res);
  if (!res.ok || body.errors) return { ok: false, message: 'That token is not valid.' };
  sessionStorage.setItem(TOKEN_KEY, token);
  current = { user: null, csrf: null, token };
  return { ok: true };
}

/** Forgets a session the server ended (signed out elsewhere, expired, or the user removed): the next step is to sign in again. */
export function forget(): void {
  if (current.token) sessionStorage.removeItem(TOKEN_KEY);
  current = { user: null, csrf: null, token: null };
}

export async function logout(): Promise<void> {
  if (current.token) sessionStorage.removeItem(TOKEN_KEY);
  else await fetch('/auth/logout', { method: 'POST', credentials: 'same-origin', headers: authHeaders() });
  current = { user: null, csrf: null, token: null };
}

/** Whether the signed-in user may see a page: token sessions see all pages (the API still decides). */
export function allowed(anyOf: readonly string[]): boolean {
  const user = current.user;
  if (!user) return current.token !== null;
  if (anyOf.length === 0) return true;
  return anyOf.some((p) => user.permissions.includes(p));
}
