import { BlockListType, Recipient, type MailerSend } from 'mailersend';
import { seedDomain } from '../support/factories.js';
import { createAccount, ISO, PLAIN, startTestServer, type TestServer } from '../support/server.js';
import { failure, INVALID, NOT_FOUND, sdkFor } from './sdk.js';
import { addr, sent, settled, simple } from './send-helpers.js';

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

const rm = () => ms.email.recipient;
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((e) => e.id);

describe('blocklist through ms.email.recipient', () => {
  it('blockRecipients adds addresses and patterns; blockList lists them', async () => {
    const d = await seedDomain(s);
    const email = addr('bl');
    const res = await rm().blockRecipients({ domain_id: d.id, recipients: [email], patterns: ['^.*@spam\\.test$'] });
    expect(res.statusCode).toBe(201);
    const [byEmail, byPattern] = res.body.data;
    expect(byEmail).toMatchObject({ type: 'email', pattern: email, domain: { id: d.id, name: d.name } });
    expect(byPattern).toMatchObject({ type: 'pattern', pattern: '^.*@spam\\.test$' });
    expect(Object.keys(byEmail).sort()).toEqual(['created_at', 'domain', 'id', 'pattern', 'type', 'updated_at']);
    expect(byEmail.created_at).toMatch(ISO);

    const list = await rm().blockList({ domain_id: d.id, page: 1, limit: 10 });
    expect(list.statusCode).toBe(200);
    expect(ids(list).sort()).toEqual([byEmail.id, byPattern.id].sort());
    const wide = await rm().blockRecipients({ patterns: [`^wide${Date.now()}@`] }, BlockListType.BLOCK_LIST);
    expect(wide.body.data[0].domain).toBeNull();
    expect((await other.email.recipient.blockList()).body.data).toEqual([]);
  });

  it('a blocklisted recipient is suppressed on send', async () => {
    const blocked = addr('blocked');
    await rm().blockRecipients({ domain_id: domain.id, recipients: [blocked] });
    const res = await ms.email.send(simple(domain, blocked));
    expect(res.statusCode).toBe(202);
    expect(res.body.warnings[0]).toMatchObject({ type: 'ALL_SUPPRESSED', recipients: [{ email: blocked, reasons: ['blocklisted'] }] });
    const [e] = await settled(s, res.headers['x-message-id'] as string);
    expect(e).toMatchObject({ status: 'suppressed', suppression_reason: 'blocklisted' });
  });

  it('delBlockListRecipients by ids and delAllBlockListRecipients', async () => {
    const d = await seedDomain(s);
    const added = (await rm().blockRecipients({ domain_id: d.id, recipients: [addr(), addr(), addr()] })).body.data;
    const one = await rm().delBlockListRecipients([added[0].id], BlockListType.BLOCK_LIST, d.id);
    expect(one.statusCode).toBe(204);
    expect(one.body).toBeFalsy();
    expect(ids(await rm().blockList({ domain_id: d.id })).sort()).toEqual([added[1].id, added[2].id].sort());
    const all = await rm().delAllBlockListRecipients(BlockListType.BLOCK_LIST, d.id);
    expect(all.statusCode).toBe(204);
    expect((await rm().blockList({ domain_id: d.id })).body.data).toEqual([]);

    const wide = (await rm().blockRecipients({ recipients: [addr()] })).body.data;
    expect((await rm().delBlockListRecipients([wide[0].id])).statusCode).toBe(204);
    await rm().blockRecipients({ recipients: [addr()] });
    expect((await rm().delAllBlockListRecipients()).statusCode).toBe(204);
    expect((await rm().blockList({ limit: 100 })).body.data.filter((e: { domain: unknown }) => e.domain === null)).toEqual([]);
  });
});

const LISTS = [
  { type: BlockListType.HARD_BOUNCES_LIST, reason: 'hard_bounced' },
  { type: BlockListType.SPAM_COMPLAINTS_LIST, reason: 'spam_complained' },
  { type: BlockListType.UNSUBSCRIBES_LIST, reason: 'unsubscribed' },
  { type: BlockListType.ON_HOLD_LIST, reason: 'on_hold' },
] as const;

describe.each(LISTS)('$type through ms.email.recipient', ({ type, reason }) => {
  // The SDK's overloads leave out POST to the on-hold list; the service takes it like the others.
  const add = (body: { domain_id: string; recipients: string[] }) => rm().blockRecipients(body, type as BlockListType.UNSUBSCRIBES_LIST);
  const list = (q: { domain_id?: string; page?: number; limit?: number } = {}) => rm().blockList(q, type as BlockListType.UNSUBSCRIBES_LIST);

  it('adds, lists, suppresses sends, and deletes by ids and all', async () => {
    const d = await seedDomain(s, { dkim: true });
    const [a, b, c] = [addr('s'), addr('s'), addr('s')];
    const res = await add({ domain_id: d.id, recipients: [a, b, c] });
    expect(res.statusCode).toBe(201);
    for (const e of res.body.data) {
      expect(Object.keys(e).sort()).toEqual(type === BlockListType.ON_HOLD_LIST ? ['created_at', 'id', 'on_hold_until', 'reason', 'recipient'] : ['created_at', 'id', 'reason', 'recipient']);
      expect(e.created_at).toMatch(ISO);
      expect(e.recipient.created_at).toMatch(PLAIN);
    }
    expect(res.body.data.map((e: { recipient: { email: string } }) => e.recipient.email)).toEqual([a, b, c]);
    const listed = await list({ domain_id: d.id, page: 1, limit: 10 });
    expect(listed.statusCode).toBe(200);
    expect(ids(listed).sort()).toEqual(ids(res).sort());
    expect((await other.email.recipient.blockList({}, type as BlockListType.UNSUBSCRIBES_LIST)).body.data).toEqual([]);

    const sendRes = await ms.email.send(simple(d, addr('ok')).setTo([new Recipient(addr('ok')), new Recipient(a)]));
    expect(sendRes.body.warnings[0].recipients).toEqual([{ email: a, name: null, reasons: [reason] }]);
    const emails = await settled(s, await sent(ms, simple(d, a)));
    expect(emails[0]).toMatchObject({ status: 'suppressed', suppression_reason: reason });

    const one = await rm().delBlockListRecipients([res.body.data[0].id], type, d.id);
    expect(one.statusCode).toBe(204);
    expect(ids(await list({ domain_id: d.id })).sort()).toEqual([res.body.data[1].id, res.body.data[2].id].sort());
    expect((await rm().delAllBlockListRecipients(type, d.id)).statusCode).toBe(204);
    expect((await list({ domain_id: d.id })).body.data).toEqual([]);
  });

  it('404 for another account\'s domain on GET; 422 on POST and DELETE', async () => {
    const d = await seedDomain(s);
    expect(await failure(other.email.recipient.blockList({ domain_id: d.id }, type as BlockListType.UNSUBSCRIBES_LIST))).toEqual({ status: 404, body: NOT_FOUND });
    const post = await failure(other.email.recipient.blockRecipients({ domain_id: d.id, recipients: [addr()] }, type as BlockListType.UNSUBSCRIBES_LIST));
    expect(post.status).toBe(422);
    expect(post.body.message).toBe(INVALID);
    expect(Object.keys(post.body.errors)).toEqual(['domain_id']);
    const del = await failure(other.email.recipient.delAllBlockListRecipients(type, d.id));
    expect(del.status).toBe(422);
    const bad = await failure(add({ domain_id: d.id, recipients: ['not-an-address'] }));
    expect(Object.keys(bad.body.errors)).toEqual(['recipients.0']);
  });
});
