import { seedDomain } from '../support/factories.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';

/**
 * Request body limits with the defaults: 1 MB (DEFAULT_BODY_BYTES) for most routes, 40 MB
 * (MAX_BODY_BYTES) where bodies carry files, and SPEC.md's per-field limits of a send (text and
 * html 2 MB each, attachments 25 MB decoded) on both surfaces.
 */
const MB = 1024 * 1024;
const tooLarge = (limit: number) => ({ message: `The request body is too large (limit ${limit} bytes).` });
/** The same refusal in GraphQL's error shape: yoga (/graphql/stream) answers the status without repeating it. */
const gqlTooLarge = (limit: number, endpoint: '/graphql' | '/graphql/stream') => ({
  errors: [
    {
      message: tooLarge(limit).message,
      extensions: { code: 'PAYLOAD_TOO_LARGE', ...(endpoint === '/graphql' ? { http: { status: 413 } } : {}) },
    },
  ],
});

let s: TestServer;
let from: string;
beforeAll(async () => {
  // No worker: what is accepted stays queued, nothing is delivered.
  s = await startTestServer({ roles: ['api'] });
  from = `hello@${(await seedDomain(s)).name}`;
});
afterAll(async () => {
  await s?.close();
});

const send = (extra: Record<string, unknown>) => ({ from: { email: from }, to: [{ email: 'r@example.net' }], subject: 'S', ...extra });

async function raw(path: string, body: string) {
  const res = await fetch(`${s.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, body: await res.json() };
}

describe('the default limit', () => {
  it('answers 413 in the documented shape past 1 MB on a route that takes no files', async () => {
    const res = await s.rest('POST', '/domains', { body: { name: 'big.example.test', pad: 'a'.repeat(MB) } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual(tooLarge(MB));
    // Just under the limit the route answers for itself.
    expect((await s.rest('POST', '/token', { body: { name: 'x'.repeat(51), scopes: ['tokens_full'], pad: 'a'.repeat(MB - 200) } })).status).toBe(422);
  });

  it('applies to /graphql/stream, which serves subscriptions, answering in the GraphQL error shape', async () => {
    const res = await raw('/graphql/stream', JSON.stringify({ query: `{ whoami { account_id } } # ${'a'.repeat(MB)}` }));
    expect(res.status).toBe(413);
    expect(res.body).toEqual(gqlTooLarge(MB, '/graphql/stream'));
  });
});

describe('routes that take files', () => {
  it('POST /v1/email takes more than 1 MB, with or without a trailing slash', async () => {
    const html = `<p>${'a'.repeat(1.5 * MB)}</p>`;
    expect((await s.rest('POST', '/email', { body: send({ html }) })).status).toBe(202);
    expect((await s.rest('POST', '/email/', { body: send({ html }) })).status).toBe(202);
  });

  it('holds the largest send SPEC.md allows: html 2 MB and a 25 MB attachment', async () => {
    const res = await s.rest('POST', '/email', {
      body: send({ html: 'h'.repeat(2 * MB), attachments: [{ filename: 'big.pdf', content: Buffer.alloc(25 * MB, 7).toString('base64') }] }),
    });
    expect(res.status).toBe(202);
  });

  it('refuses html over 2 MB and an attachment over 25 MB decoded with 422, on /v1 and GraphQL', async () => {
    const html = 'h'.repeat(2 * MB + 1);
    const rest = await s.rest('POST', '/email', { body: send({ html }) });
    expect(rest.status).toBe(422);
    expect(rest.body.errors).toEqual({ html: ['The html may not be greater than 2 MB.'] });

    const mutation = `mutation($from: EmailAddressInput, $to: [EmailAddressInput!]!, $html: String, $attachments: [AttachmentInput!]) {
      send_email(from: $from, to: $to, subject: "S", html: $html, attachments: $attachments) { message_id } }`;
    const gql = await s.gql(mutation, { from: { email: from }, to: [{ email: 'r@example.net' }], html });
    expect(gql.status).toBe(422);
    expect(gql.body.errors[0].extensions.errors).toEqual({ html: ['The html may not be greater than 2 MB.'] });

    const attachments = [{ filename: 'big.pdf', content: Buffer.alloc(25 * MB + 1, 7).toString('base64') }];
    const restAttachment = await s.rest('POST', '/email', { body: send({ text: 't', attachments }) });
    expect(restAttachment.status).toBe(422);
    expect(restAttachment.body.errors).toEqual({ 'attachments.0.content': ['The attachments.0.content may not be greater than 25 MB.'] });
    const gqlAttachment = await s.gql(mutation, { from: { email: from }, to: [{ email: 'r@example.net' }], html: '<p>x</p>', attachments });
    expect(gqlAttachment.status).toBe(422);
    expect(gqlAttachment.body.errors[0].extensions.errors).toEqual({ 'attachments.0.content': ['The attachments.0.content may not be greater than 25 MB.'] });
  });

  it('answers 413 past MAX_BODY_BYTES (40 MB) on POST /v1/email and /graphql, each in its shape', async () => {
    const huge = 'a'.repeat(40 * MB);
    const rest = await raw('/v1/email', JSON.stringify(send({ text: huge })));
    expect(rest.status).toBe(413);
    expect(rest.body).toEqual(tooLarge(40 * MB));
    const gql = await raw('/graphql', JSON.stringify({ query: '{ whoami { account_id } }', variables: { pad: huge } }));
    expect(gql.status).toBe(413);
    expect(gql.body).toEqual(gqlTooLarge(40 * MB, '/graphql'));
  });

  it('bulk email, DMARC report uploads, verification lists and templates take more than 1 MB', async () => {
    const bulk = await s.rest('POST', '/bulk-email', { body: [send({ html: `<p>${'b'.repeat(1.5 * MB)}</p>` })] });
    expect(bulk.status).toBe(202);
    // No such monitor: the body was read and the route answered.
    const report = await s.rest('POST', '/dmarc-monitoring/nope/reports', { body: { report: 'r'.repeat(2 * MB) } });
    expect(report.status).toBe(404);

    const emails = Array.from({ length: 10_000 }, (_, i) => `${'v'.repeat(180)}${i}@example.com`);
    const list = await s.rest('POST', '/email-verification', { body: { name: 'big list', emails } });
    expect(list.status).toBe(201);
    const tooMany = await s.rest('POST', '/email-verification', { body: { name: 'too big', emails, pad: 'p'.repeat(2.5 * MB) } });
    expect(tooMany.status).toBe(413);
    expect(tooMany.body).toEqual(tooLarge(4 * MB));

    const template = await s.rest('POST', '/templates', { body: { name: 'big', html: `<p>${'t'.repeat(3 * MB)}</p>`, text: 't' } });
    expect(template.status).toBe(201);
  });
});
