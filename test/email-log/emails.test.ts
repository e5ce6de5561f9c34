import { seedDomain, accountIdOf } from '../support/factories.js';
import { createAccount, PLAIN, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { address, emailsOf, send, sql } from './helpers.js';

let s: TestServer;
let domain: { id: string; name: string };
let other: { id: string; name: string };
let msgA: string;
let msgB: string;
let msgC: string;
const upper = address('Upper');
beforeAll(async () => {
  s = await startTestServer();
  domain = await seedDomain(s, { dkim: true });
  other = await seedDomain(s, { dkim: true });
  msgA = await send(s, domain, { to: [address(), upper], subject: 'Invoice 42% off', tags: ['alpha', 'beta'] });
  msgB = await send(s, domain, { subject: 'Welcome aboard' });
  msgC = await send(s, other, { subject: 'From the other domain', tags: ['gamma'] });
  for (const m of [msgA, msgB, msgC]) await emailsOf(s, m);
});
afterAll(async () => {
  await s?.close();
});

const ITEM_KEYS = [
  'clicked_at', 'created_at', 'domain_id', 'from', 'from_name', 'headers', 'html', 'id', 'interaction', 'message_id', 'opened_at',
  'status', 'subject', 'suppression_reason', 'tags', 'template_id', 'text', 'to', 'to_name', 'unsubscribed_at', 'updated_at',
];
const ids = (res: any) => res.body.data.map((e: any) => e.message_id);

describe('GET /v1/emails', () => {
  it('lists every email, newest first, in a plain data envelope', async () => {
    const res = await s.rest('GET', '/emails');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(res.body.data).toHaveLength(4);
    expect(ids(res)).toEqual([msgC, msgB, msgA, msgA]);
    for (const e of res.body.data) {
      expect(Object.keys(e).sort()).toEqual(ITEM_KEYS);
      expect(e.created_at).toMatch(PLAIN);
      expect(e.updated_at).toMatch(PLAIN);
    }
    const a = res.body.data.find((e: any) => e.to === upper);
    expect(a).toMatchObject({
      message_id: msgA, domain_id: domain.id, template_id: null, from: `sender@${domain.name}`, from_name: 'Sender',
      to_name: 'Someone', subject: 'Invoice 42% off', tags: ['alpha', 'beta'], status: 'delivered',
      suppression_reason: null, opened_at: null, clicked_at: null, unsubscribed_at: null,
      interaction: [], headers: null, text: null, html: null,
    });
    expect(res.body.data.find((e: any) => e.message_id === msgB).tags).toBeNull();
  });

  it('pages with page and limit', async () => {
    const first = await s.rest('GET', '/emails?limit=10&page=1');
    expect(first.body.data).toHaveLength(4);
    expect((await s.rest('GET', '/emails?limit=10&page=2')).body.data).toEqual([]);
  });

  it('filters by status, recipient, subject, tag, template, message and domain', async () => {
    expect(ids(await s.rest('GET', `/emails?message_id=${msgB}`))).toEqual([msgB]);
    expect(ids(await s.rest('GET', `/emails?domain_id=${other.id}`))).toEqual([msgC]);
    expect(ids(await s.rest('GET', `/emails?recipient=${encodeURIComponent(upper.toLowerCase())}`))).toEqual([msgA]);
    expect(ids(await s.rest('GET', '/emails?subject=WELCOME'))).toEqual([msgB]);
    // % is taken literally, not as a wildcard.
    expect(ids(await s.rest('GET', `/emails?subject=${encodeURIComponent('42%')}`))).toEqual([msgA, msgA]);
    expect(ids(await s.rest('GET', `/emails?subject=${encodeURIComponent('4%f')}`))).toEqual([]);
    expect(ids(await s.rest('GET', '/emails?tag=beta'))).toEqual([msgA, msgA]);
    expect(ids(await s.rest('GET', '/emails?tag=bet'))).toEqual([]);
    expect(ids(await s.rest('GET', '/emails?status=delivered'))).toHaveLength(4);
    expect(ids(await s.rest('GET', '/emails?status[]=queued&status[]=sent'))).toEqual([]);
    await sql(s, 'update messages set template_id = ? where id = ?', ['tpl-x', msgB]);
    expect(ids(await s.rest('GET', '/emails?template=tpl-x'))).toEqual([msgB]);
    expect((await s.rest('GET', '/emails?domain_id=nope')).status).toBe(404);
  });

  it('filters by interaction', async () => {
    const [e] = (await s.rest('GET', `/emails?message_id=${msgB}`)).body.data;
    await sql(s, 'update emails set opened_at = now(), clicked_at = now() where id = ?', [e.id]);
    const [c] = (await s.rest('GET', `/emails?message_id=${msgC}`)).body.data;
    await sql(s, 'update emails set unsubscribed_at = now() where id = ?', [c.id]);
    expect(ids(await s.rest('GET', '/emails?interaction=opened'))).toEqual([msgB]);
    expect(ids(await s.rest('GET', '/emails?interaction[]=clicked&interaction[]=unsubscribed'))).toEqual([msgC, msgB]);
    expect(ids(await s.rest('GET', '/emails?interaction=no_interaction'))).toEqual([msgA, msgA]);
    const opened = (await s.rest('GET', `/emails?message_id=${msgB}`)).body.data[0];
    expect(opened.opened_at).toMatch(PLAIN);
    expect(opened.clicked_at).toMatch(PLAIN);
  });

  it.each([
    ['status=bogus', 'status.0', 'The selected status.0 is invalid.'],
    ['status[]=sent&status[]=bogus', 'status.1', 'The selected status.1 is invalid.'],
    ['interaction=complained', 'interaction.0', 'The selected interaction.0 is invalid.'],
    ['limit=9', 'limit', 'The limit must be at least 10.'],
    ['limit=101', 'limit', 'The limit may not be greater than 100.'],
    ['page=0', 'page', 'The page must be at least 1.'],
    ['page=x', 'page', 'The page must be an integer.'],
  ])('422 for ?%s', async (q, key, message) => {
    const res = await s.rest('GET', `/emails?${q}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { [key]: [message] } });
  });
});

describe('GET /v1/email/{email_id}', () => {
  it('adds the recipient, its activity oldest first and the captured content', async () => {
    const [e] = (await s.rest('GET', `/emails?recipient=${encodeURIComponent(upper)}`)).body.data;
    const res = await s.rest('GET', `/email/${e.id}`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual([...ITEM_KEYS, 'activity', 'content', 'recipient'].sort());
    expect(d).toMatchObject({ id: e.id, message_id: msgA, to: upper, status: 'delivered' });
    expect(d.activity.map((a: any) => a.type)).toEqual(['queued', 'sent', 'delivered']);
    for (const a of d.activity) {
      // suppression_reason is there only when the type is suppressed.
      expect(Object.keys(a).sort()).toEqual(['created_at', 'id', 'type']);
      expect(a.created_at).toMatch(PLAIN);
    }
    expect(Object.keys(d.recipient).sort()).toEqual(['created_at', 'deleted_at', 'email', 'id', 'updated_at']);
    // Recipients are stored lowercase, as the suppression lists store them; the email keeps the case it was sent with.
    expect(d.recipient).toMatchObject({ email: upper.toLowerCase(), deleted_at: '' });
    expect(Object.keys(d.content).sort()).toEqual(['html', 'raw', 'text']);
    expect(d.content.html).toContain('HTML body');
    expect(d.content.text).toContain('Plain body');
    expect(d.content.raw).toContain('DKIM-Signature');
    expect(d.content.raw).toContain('Subject: Invoice 42% off');
  });

  it('has no content for an email that was never handed to the capture transport', async () => {
    const msg = await send(s, domain, { send_at: Math.floor(Date.now() / 1000) + 3600 });
    const [e] = await emailsOf(s, msg, 'scheduled');
    const res = await s.rest('GET', `/email/${e.id}`);
    expect(res.body.data.content).toBeNull();
    expect(res.body.data.activity.map((a: any) => a.type)).toEqual(['queued']);
  });

  it('404 when unknown', async () => {
    const res = await s.rest('GET', '/email/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Resource not found.' });
  });
});

describe('access', () => {
  it('401 without a valid token', async () => {
    expect((await s.rest('GET', '/emails', { token: null })).status).toBe(401);
    const res = await s.rest('GET', '/emails', { token: 'mlsn.nope' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Unauthenticated.' });
  });

  it('403 without activity_read; activity_full implies it', async () => {
    const [e] = (await s.rest('GET', `/emails?message_id=${msgB}`)).body.data;
    const none = await tokenWith(s, ['domains_read']);
    expect((await s.rest('GET', '/emails', { token: none })).status).toBe(403);
    expect((await s.rest('GET', `/email/${e.id}`, { token: none })).status).toBe(403);
    const full = await tokenWith(s, ['activity_full']);
    expect((await s.rest('GET', `/email/${e.id}`, { token: full })).status).toBe(200);
  });

  it('a domain-limited token sees its domain only', async () => {
    const limited = await tokenWith(s, ['activity_read'], other.id);
    expect(ids(await s.rest('GET', '/emails', { token: limited }))).toEqual([msgC]);
    expect((await s.rest('GET', `/emails?domain_id=${domain.id}`, { token: limited })).status).toBe(403);
    const [e] = (await s.rest('GET', `/emails?message_id=${msgB}`)).body.data;
    expect((await s.rest('GET', `/email/${e.id}`, { token: limited })).status).toBe(403);
  });

  it('another account sees none of it', async () => {
    const acct = await createAccount(s);
    expect(await accountIdOf(s, acct.token)).toBe(acct.id);
    const theirs = await seedDomain(s, { token: acct.token, dkim: true });
    const msg = await send(s, theirs, { token: acct.token });
    await emailsOf(s, msg, 'delivered', acct.token);
    expect(ids(await s.rest('GET', '/emails', { token: acct.token }))).toEqual([msg]);
    expect(ids(await s.rest('GET', '/emails'))).not.toContain(msg);
    const [e] = (await s.rest('GET', `/emails?message_id=${msgB}`)).body.data;
    expect((await s.rest('GET', `/email/${e.id}`, { token: acct.token })).status).toBe(404);
    expect((await s.rest('GET', `/emails?domain_id=${domain.id}`, { token: acct.token })).status).toBe(404);
  });
});

describe('GraphQL', () => {
  it('emails and email', async () => {
    const list = await s.gql(
      'query($m: ID) { emails(message_id: $m, limit: 10) { id to status tags created_at } }',
      { m: msgA },
    );
    expect(list.body.errors).toBeUndefined();
    expect(list.body.data.emails).toHaveLength(2);
    expect(list.body.data.emails[0]).toMatchObject({ status: 'delivered', tags: ['alpha', 'beta'] });
    const id = list.body.data.emails[0].id;
    const one = await s.gql('query($id: ID!) { email(email_id: $id) { id activity { type } content { raw } recipient { email } } }', { id });
    expect(one.body.data.email.activity.map((a: any) => a.type)).toEqual(['queued', 'sent', 'delivered']);
    expect(one.body.data.email.content.raw).toContain('DKIM-Signature');
    const missing = await s.gql('query { email(email_id: "nope") { id } }');
    expect(missing.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const bad = await s.gql('query { emails(status: ["bogus"]) { id } }');
    expect(bad.body.errors[0].extensions.errors).toEqual({ 'status.0': ['The selected status.0 is invalid.'] });
  });
});
