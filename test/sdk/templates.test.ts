import { EmailParams, Recipient, Sender, type MailerSend } from 'mailersend';
import { seedDomain } from '../support/factories.js';
import { createAccount, ISO, PLAIN, startTestServer, type TestServer } from '../support/server.js';
import { failure, INVALID, NOT_FOUND, sdkFor, UNKNOWN_ID } from './sdk.js';
import { addr, sent, settled } from './send-helpers.js';

let s: TestServer;
let ms: MailerSend;
let other: MailerSend;
let domain: { id: string; name: string };
beforeAll(async () => {
  s = await startTestServer();
  ms = sdkFor(s);
  other = sdkFor(s, (await createAccount(s)).token);
  domain = await seedDomain(s, { dkim: true });
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const LIST_KEYS = ['created_at', 'description', 'id', 'image_path', 'name', 'tags', 'type', 'updated_at', 'variables'];
const SINGLE_KEYS = [...LIST_KEYS, 'category', 'domain', 'template_stats'].sort();

describe('ms.email.template', () => {
  it('create answers 201 in the create shape', async () => {
    const res = await ms.email.template.create({ name: 'Hello', html: '<p>Hi {{name}}</p>', text: 'Hi {{name}}', tags: ['a', 'b'], domain_id: domain.id });
    expect(res.statusCode).toBe(201);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(SINGLE_KEYS);
    expect(d).toMatchObject({ name: 'Hello', type: 'html', tags: ['a', 'b'], variables: { name: null }, category: null, domain: null });
    expect(d.created_at).toMatch(ISO);
  });

  it('auto_generate makes the text from the html', async () => {
    const res = await ms.email.template.create({ html: '<p>One</p><p>Two</p>', text: '', auto_generate: true });
    expect(res.body.data.name).toBe('Template');
    expect(res.statusCode).toBe(201);
  });

  it('list pages with links and meta, filtered by domain_id', async () => {
    const elsewhere = await seedDomain(s);
    const mine = (await ms.email.template.create({ html: '<p>x</p>', text: 'x', domain_id: elsewhere.id })).body.data.id;
    const res = await ms.email.template.list({ domain_id: elsewhere.id, page: 1, limit: 10 });
    expect(res.statusCode).toBe(200);
    expect(res.body.data.map((t: { id: string }) => t.id)).toEqual([mine]);
    expect(Object.keys(res.body.data[0]).sort()).toEqual(LIST_KEYS);
    expect(res.body.data[0].created_at).toMatch(PLAIN);
    expect(res.body.meta).toMatchObject({ current_page: 1, per_page: 10, total: 1, last_page: 1 });
    expect(Object.keys(res.body.links).sort()).toEqual(['first', 'last', 'next', 'prev']);
    const all = await ms.email.template.list();
    expect(all.body.meta.per_page).toBe(25);
    expect(all.body.data.map((t: { id: string }) => t.id)).toContain(mine);
    expect((await other.email.template.list()).body.data).toEqual([]);
  });

  it('single adds category, the domain with its totals and the template stats', async () => {
    const t = (await ms.email.template.create({ html: '<p>Hey {{name}}</p>', text: 'Hey', domain_id: domain.id })).body.data;
    const to = addr('stats');
    await settled(s, await sent(ms, new EmailParams()
      .setFrom(new Sender(`hi@${domain.name}`))
      .setTo([new Recipient(to)])
      .setSubject('Stats')
      .setTemplateId(t.id)
      .setPersonalization([{ email: to, data: { name: 'S' } }])));
    const res = await ms.email.template.single(t.id);
    expect(res.statusCode).toBe(200);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(SINGLE_KEYS);
    expect(d.updated_at).toMatch(ISO);
    expect(d.domain).toMatchObject({ id: domain.id, name: domain.name });
    expect(Object.keys(d.domain.totals).sort()).toEqual(['delivered', 'hard_bounced', 'sent', 'soft_bounced']);
    expect(d.domain.totals.delivered).toBeGreaterThanOrEqual(1);
    expect(d.template_stats).toEqual({ total: 1, queued: 0, sent: 1, rejected: 0, delivered: 1, last_email_sent_at: expect.stringMatching(ISO) });
  });

  it('update changes the given fields', async () => {
    const t = (await ms.email.template.create({ name: 'Before', html: '<p>a</p>', text: 'a' })).body.data;
    const res = await ms.email.template.update(t.id, { name: 'After', html: '<p>{{who}}</p>', tags: ['x'] });
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ id: t.id, name: 'After', tags: ['x'], variables: { who: null } });
  });

  it('delete answers 204; then 404', async () => {
    const t = (await ms.email.template.create({ html: '<p>x</p>', text: 'x' })).body.data;
    const res = await ms.email.template.delete(t.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBeFalsy();
    expect(await failure(ms.email.template.single(t.id))).toEqual({ status: 404, body: NOT_FOUND });
    expect(await failure(ms.email.template.delete(t.id))).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('404 for unknown and another account\'s ids; 422 on validation', async () => {
    const t = (await ms.email.template.create({ html: '<p>x</p>', text: 'x' })).body.data;
    for (const call of [
      () => ms.email.template.single(UNKNOWN_ID),
      () => ms.email.template.update(UNKNOWN_ID, { name: 'x' }),
      () => ms.email.template.delete(UNKNOWN_ID),
      () => other.email.template.single(t.id),
      () => other.email.template.update(t.id, { name: 'x' }),
      () => other.email.template.delete(t.id),
    ]) {
      expect(await failure(call())).toEqual({ status: 404, body: NOT_FOUND });
    }
    const bad = await failure(ms.email.template.create({ html: '<p>x</p>', text: 'x', tags: ['1', '2', '3', '4', '5', '6'], name: 'n'.repeat(51) }));
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe(INVALID);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['name', 'tags']);
    const paging = await failure(ms.email.template.list({ page: 0 }));
    expect(Object.keys(paging.body.errors)).toEqual(['page']);
  });
});
