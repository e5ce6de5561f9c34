import { mailsTo, type Mail } from '../support/mail.js';
import { MailerSend } from 'mailersend';
import { ADMIN_TOKEN, type TestServer } from '../support/server.js';

/** `{ body, statusCode, headers }`: what every SDK call resolves to (the package root does not export it). */
export type APIResponse = Awaited<ReturnType<MailerSend['token']['single']>>;

/** Every object reachable from the client; the SDK nests modules (ms.email.domain, ...). */
function* walk(root: object, seen = new Set<object>()): Generator<Record<string, unknown>> {
  if (seen.has(root)) return;
  seen.add(root);
  yield root as Record<string, unknown>;
  for (const v of Object.values(root)) if (v && typeof v === 'object') yield* walk(v, seen);
}

/**
 * An official SDK client aimed at the test server. The SDK hard-codes its base URL and copies it
 * into each submodule at construction, with no option to change it, so every copy is rewritten.
 */
export function sdkFor(s: TestServer, token: string = ADMIN_TOKEN): MailerSend {
  const ms = new MailerSend({ apiKey: token });
  const baseUrl = `${s.url}/v1`;
  let n = 0;
  for (const o of walk(ms)) {
    if (typeof o.baseUrl === 'string') {
      o.baseUrl = baseUrl;
      n++;
    }
  }
  // A new SDK release could move the URL elsewhere; never let a test reach the real API.
  for (const o of walk(ms)) {
    if (typeof o.baseUrl === 'string' && o.baseUrl !== baseUrl) throw new Error('SDK base URL not rewritten');
  }
  if (n < 10) throw new Error(`only ${n} SDK modules found`);
  return ms;
}

/** What the SDK throws on a non-2xx answer: the raw response, re-thrown as a plain object. */
export interface Failure {
  status: number;
  body: any;
}

/** Runs an SDK call that must fail; answers its status and body. A success fails the test. */
export async function failure(p: Promise<APIResponse>): Promise<Failure> {
  let ok: APIResponse;
  try {
    ok = await p;
  } catch (e: any) {
    // request.service.js rethrows `{headers, body, statusCode}`; gaxios errors carry `response`.
    if (e && typeof e.statusCode === 'number') return { status: e.statusCode, body: e.body };
    if (e?.response) return { status: e.response.status, body: e.response.data };
    throw e;
  }
  throw new Error(`expected the SDK call to fail, got ${ok.statusCode}: ${JSON.stringify(ok.body)}`);
}

export const NOT_FOUND = { message: 'Resource not found.' };
export const INVALID = 'The given data was invalid.';
export const UNAUTHENTICATED = { message: 'Unauthenticated.' };

/** An id no account has. */
export const UNKNOWN_ID = 'zzzzzzzzzzzzzzzzzzzz';



let seq = 0;
/** A domain name the test DNS answers for, unique per call. */
export function resolvableName(s: TestServer, tag = 'sdk'): string {
  const name = `${tag}${++seq}-${Date.now().toString(36)}.example.com`;
  s.dns.addName(name);
  return name;
}

/** Creates a domain through the SDK. */
export async function sdkDomain(s: TestServer, ms: MailerSend): Promise<{ id: string; name: string }> {
  const { body } = await ms.email.domain.create({ name: resolvableName(s) });
  return { id: body.data.id, name: body.data.name };
}

export { mailsTo, type Mail };
