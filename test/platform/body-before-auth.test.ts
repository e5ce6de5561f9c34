import { seedDomain } from '../support/factories.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { answerWithin, startUpload } from '../support/upload.js';
import { loginOk, userWith } from '../auth/helpers.js';

/**
 * The routes that need a login read a body only from a caller who may send it (src/http/body-gate.ts):
 * without credentials at most ANONYMOUS_BODY_BYTES (64 KB by default), and a larger body only once
 * the credential it comes with authenticates. Each upload below announces or streams far more than
 * it sends: an answer that arrives anyway was given without reading the body.
 */
const MB = 1024 * 1024;
const KB = 1024;
const HUGE = 30 * MB;
/** No answer within this long means the server is waiting for the rest of the body. */
const PATIENCE_MS = 15_000;

let s: TestServer;
let from: string;
beforeAll(async () => {
  s = await startTestServer();
  from = `hello@${(await seedDomain(s)).name}`;
});
afterAll(async () => {
  await s?.close();
});

/** Announces `length` bytes (or streams chunks), sends `send` of them, and waits for an answer. */
async function upload(path: string, opts: { headers?: Record<string, string>; length?: number; send: number }) {
  const up = startUpload(s.url, { path, headers: opts.headers, length: opts.length });
  try {
    for (let sent = 0; sent < opts.send; sent += 16 * KB) await up.write(Math.min(16 * KB, opts.send - sent));
    return await answerWithin(up.answer, PATIENCE_MS);
  } finally {
    up.close();
  }
}

/** What the same route answers a bad token with a small body: the 401 the gate must match. */
async function smallBadTokenAnswers() {
  const gql = await s.gql('{ whoami { account_id } }', {}, 'not-a-token');
  const rest = await s.rest('POST', '/domains', { token: 'not-a-token', body: { name: 'x.example.test' } });
  const res = await fetch(`${s.url}/graphql/stream`, {
    method: 'POST',
    headers: { authorization: 'Bearer not-a-token', 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: '{ whoami { account_id } }' }),
  });
  const stream = { status: res.status, body: await res.json() };
  return { gql, rest, stream };
}

describe('without credentials', () => {
  it('refuses 30 MB announced to /graphql and to POST /v1/email with 401, having read 64 KB of it', async () => {
    const { gql, rest, stream: streamed } = await smallBadTokenAnswers();
    expect(gql.status).toBe(401);
    expect(rest.status).toBe(401);
    expect(streamed.status).toBe(401);

    const graphql = await upload('/graphql', { length: HUGE, send: 64 * KB });
    expect(graphql).not.toBeNull();
    expect(graphql!.status).toBe(401);
    expect(graphql!.body).toEqual(gql.body);
    expect(graphql!.headers.connection).toBe('close');

    const v1 = await upload('/v1/email', { length: HUGE, send: 64 * KB });
    expect(v1).not.toBeNull();
    expect(v1!.status).toBe(401);
    expect(v1!.body).toEqual(rest.body);
    expect(v1!.body).toEqual({ message: 'Unauthenticated.' });

    const stream = await upload('/graphql/stream', { length: HUGE, send: 64 * KB });
    expect(stream).not.toBeNull();
    expect([stream!.status, stream!.body]).toEqual([401, streamed.body]);
  });

  it('counts a chunked body and refuses it once past 64 KB', async () => {
    const answer = await upload('/v1/domains', { send: 128 * KB });
    expect(answer).not.toBeNull();
    expect(answer!.status).toBe(401);
    expect(answer!.body).toEqual({ message: 'Unauthenticated.' });
    expect(answer!.sentBeforeAnswer).toBeLessThan(128 * KB + 1);

    const graphql = await upload('/graphql', { send: 128 * KB });
    expect(graphql?.status).toBe(401);
    expect(graphql?.body.errors[0]).toMatchObject({ message: 'Unauthenticated.', extensions: { code: 'UNAUTHENTICATED' } });
  });

  it('still reads a small chunked body: an anonymous /graphql request is answered by GraphQL', async () => {
    const up = startUpload(s.url, { path: '/graphql' });
    await up.writeText(JSON.stringify({ query: '{ __typename }' }));
    up.finish();
    const answer = await answerWithin(up.answer, PATIENCE_MS);
    up.close();
    expect(answer?.status).toBe(200);
    expect(answer?.body).toEqual({ data: { __typename: 'Query' } });
  });

  it('leaves public routes that take bodies to their own limits', async () => {
    const res = await fetch(`${s.url}/auth/password-reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.net', pad: 'p'.repeat(200 * KB) }),
    });
    expect(res.status).toBe(202);
  });
});

describe('with a credential that does not authenticate', () => {
  it('refuses a bad token with a 30 MB body before reading it, on /v1 and /graphql', async () => {
    const { gql, rest } = await smallBadTokenAnswers();
    const v1 = await upload('/v1/email', { headers: { authorization: 'Bearer not-a-token' }, length: HUGE, send: 64 * KB });
    expect(v1).not.toBeNull();
    expect([v1!.status, v1!.body]).toEqual([401, rest.body]);

    const graphql = await upload('/graphql', { headers: { authorization: 'Bearer not-a-token' }, length: HUGE, send: 64 * KB });
    expect(graphql).not.toBeNull();
    expect([graphql!.status, graphql!.body]).toEqual([401, gql.body]);

    const chunked = await upload('/v1/email', { headers: { authorization: 'Bearer not-a-token' }, send: 64 * KB });
    expect(chunked?.status).toBe(401);
  });

  it('refuses an unknown session cookie with a 30 MB body before reading it', async () => {
    const answer = await upload('/graphql', { headers: { cookie: 'pb_session=not-a-session', 'x-csrf-token': 'x' }, length: HUGE, send: 64 * KB });
    expect(answer).not.toBeNull();
    expect(answer!.status).toBe(401);
  });
});

describe('with a credential that authenticates', () => {
  const send = (extra: Record<string, unknown>) => ({ from: { email: from }, to: [{ email: 'r@example.net' }], subject: 'S', text: 't', ...extra });

  it('takes a large legal body: POST /v1/email with a 5 MB attachment, announced or chunked', async () => {
    const body = JSON.stringify(send({ attachments: [{ filename: 'big.pdf', content: Buffer.alloc(5 * MB, 7).toString('base64') }] }));
    const announced = await s.rest('POST', '/email', { rawBody: body });
    expect(announced.status).toBe(202);

    const up = startUpload(s.url, { path: '/v1/email', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    for (let i = 0; i < body.length; i += 256 * KB) await up.writeText(body.slice(i, i + 256 * KB));
    up.finish();
    const chunked = await answerWithin(up.answer, PATIENCE_MS);
    up.close();
    expect(chunked?.status).toBe(202);
  });

  it('takes a large GraphQL body from a console session', async () => {
    const user = await userWith(s, { role: 'admin' });
    const session = await loginOk(s, user.email, user.password);
    const res = await fetch(`${s.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: session.cookie, 'x-csrf-token': session.csrf },
      body: JSON.stringify({ query: '{ whoami { account_id } }', variables: { pad: 'p'.repeat(200 * KB) } }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data.whoami.account_id).toBeTruthy();
  });
});
