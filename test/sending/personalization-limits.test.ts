import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { sql, until } from './helpers.js';

/**
 * The bounds of personalization data (send.validate.ts, personalization.ts), checked before
 * anything renders: each is a 422 naming `personalization.N.data` on /v1 and GraphQL, and an
 * item's error on the bulk route; data within them all still sends.
 */
let sink: SmtpSink;
let s: TestServer;
let from: string;
let seq = 0;
const rcpt = (tag: string) => `${tag}-${++seq}-${Date.now().toString(36)}@example.net`;

beforeAll(async () => {
  sink = await startSmtpSink();
  s = await startTestServer({ env: { MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}` } });
  const domain = await seedDomain(s, { dkim: true });
  from = `shop@${domain.name}`;
}, 60_000);
afterAll(async () => {
  await s?.close();
  await sink?.close();
});

const body = (to: string, data: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  from: { email: from },
  to: [{ email: to }],
  subject: 'Hi {{ name }}',
  html: '<p>{% for l in lines %}{{ l }}{% endfor %}</p>',
  personalization: [{ email: to, data }],
  ...extra,
});
const send = (b: Record<string, unknown>) => s.rest('POST', '/email', { body: b });
const messagesTo = async (to: string) => (await sql<{ n: number }>(s, 'select count(*)::int as n from emails where to_email = ?', [to]))[0].n;

/** Nested `levels` deep, the data object being the first level. */
const nested = (levels: number): Record<string, unknown> => {
  let v: Record<string, unknown> = { leaf: 'x' };
  for (let i = 2; i < levels; i++) v = { n: v };
  return { n: v };
};

const OVER: [what: string, data: Record<string, unknown>, message: string][] = [
  ['bytes', { blocks: Array.from({ length: 3 }, () => 'x'.repeat(30_000)) }, 'The personalization.0.data may not be larger than 65536 bytes.'],
  ['list', { lines: Array.from({ length: 1001 }, (_, i) => i) }, 'The personalization.0.data may not have lists of more than 1000 items (at lines).'],
  ['string', { note: 'x'.repeat(32 * 1024 + 1) }, 'The personalization.0.data may not have strings longer than 32768 characters (at note).'],
  ['key', { ['k'.repeat(32 * 1024 + 1)]: 1 }, `The personalization.0.data may not have keys longer than 32768 characters (at ${'k'.repeat(40)}…).`],
  ['depth', nested(9), 'The personalization.0.data may not nest objects and lists deeper than 8 levels (at n.n.n.n.n.n.n.n).'],
];

describe('personalization bounds', () => {
  it('each bound passed is a 422 naming personalization.N.data on /v1; nothing is stored', async () => {
    for (const [, data, message] of OVER) {
      const to = rcpt('over');
      const res = await send(body(to, data));
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { 'personalization.0.data': [message] } });
      expect(await messagesTo(to)).toBe(0);
    }
    const many = Array.from({ length: 71 }, (_, i) => ({ email: `p${i}@example.net`, data: {} }));
    expect((await send({ ...body(rcpt('many'), {}), personalization: many })).body.errors).toEqual({ personalization: ['The personalization may not have more than 70 items.'] });
  });

  it('data nested far deeper than the call stack goes is a 422, not a server error', async () => {
    const to = rcpt('deep');
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const raw = JSON.stringify(body(to, {})).replace('"data":{}', `"data":{"d":${deep}}`);
    const res = await s.rest('POST', '/email', { rawBody: raw });
    expect(res.status).toBe(422);
    // A JSON body may nest 64 levels at most (src/lib/json-shape.ts): refused before it is parsed,
    // at the path where it goes past that.
    const [[field, [message]]] = Object.entries(res.body.errors as Record<string, string[]>);
    expect(field).toMatch(/^personalization\.0\.data\.d(\.0)+$/);
    expect(message).toMatch(/may not be nested more than 64 levels deep/);
    expect(await messagesTo(to)).toBe(0);
  });

  it('the same bounds answer through GraphQL send_email', async () => {
    const mutation = `mutation($from: EmailAddressInput, $to: [EmailAddressInput!]!, $p: [PersonalizationInput!]) {
      send_email(from: $from, to: $to, subject: "x", text: "{{ n }}", personalization: $p) { message_id } }`;
    for (const [, data, message] of OVER) {
      const to = rcpt('gql');
      const res = await s.gql(mutation, { from: { email: from }, to: [{ email: to }], p: [{ email: to, data }] });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].extensions.errors).toEqual({ 'personalization.0.data': [message] });
    }
  });

  it('data at every bound at once still sends and renders', async () => {
    const to = rcpt('within');
    const data = { name: 'Ann', lines: Array.from({ length: 1000 }, (_, i) => `l${i};`), note: 'y'.repeat(32 * 1024), deep: nested(7) };
    const res = await send(body(to, data));
    expect(res.status).toBe(202);
    const raw = (await sink.waitFor(to)).raw.replace(/=\r?\n/g, '');
    expect(raw).toMatch(/^Subject: Hi Ann\r?$/m);
    expect(raw).toContain('l0;l1;l2;');
    expect(raw).toContain('l999;');
  });

  it('a large attachment still sends: the body limit is the attachments\', the bounds are the data\'s', async () => {
    const to = rcpt('attached');
    const content = Buffer.alloc(10 * 1024 * 1024, 7).toString('base64');
    const res = await send(body(to, { name: 'Ann', lines: [] }, { attachments: [{ filename: 'big.pdf', content }] }));
    expect(res.status).toBe(202);
  });

  it('the bulk route applies the same bounds and limits to each item', async () => {
    const [ok, over, slow] = [rcpt('bulk-ok'), rcpt('bulk-over'), rcpt('bulk-slow')];
    const where = `{% assign r = (1..20000) %}{{ r | where_exp: "x", "${Array(100).fill('x > 0').join(' and ')}" | size }}`;
    const res = await s.rest('POST', '/bulk-email', {
      body: [body(ok, { name: 'Ok', lines: ['a'] }), body(over, OVER[1][1]), { ...body(slow, {}), html: where }],
    });
    expect(res.status).toBe(202);
    // Refused when the request came, so its data is not stored with it (the slow item keeps the job
    // running well past this read).
    const [stored] = await sql(s, 'select payload from bulk_emails where id = ?', [res.body.bulk_email_id]);
    expect(stored.payload[1]).toEqual({ errors: { 'personalization.0.data': [OVER[1][2]] } });
    const data = await until(async () => {
      const r = await s.rest('GET', `/bulk-email/${res.body.bulk_email_id}`);
      return r.body.data?.state === 'completed' ? r.body.data : null;
    }, 30_000, 'the bulk send to complete');
    expect(data.validation_errors).toEqual({
      'message.1.personalization.0.data': [OVER[1][2]],
      'message.2.html': [`The html could not be rendered for ${slow}: it took longer than 500 ms and was stopped.`],
    });
    expect(data.messages_id).toHaveLength(1);
    expect((await sink.waitFor(ok)).raw).toMatch(/^Subject: Hi Ok\r?$/m);
  });
});
