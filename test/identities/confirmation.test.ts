import { seedDomain } from '../support/factories.js';
import { tapEvents, type EventTap } from '../support/events.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { addressAt, confirmLinkIn, createIdentity, DOMAIN_KEYS, IDENTITY_KEYS, mailsTo, open, sql } from './helpers.js';

let s: TestServer;
let receiver: Receiver;
let domain: { id: string; name: string };
/** sender_identity.verified, as a webhook of the identity's domain gets it, and one of another domain of the account. */
let tap: EventTap;
let elsewhere: EventTap;
beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  domain = await seedDomain(s);
  tap = await tapEvents(s, receiver, { domainId: domain.id }, { types: ['sender_identity.verified'] });
  elsewhere = await tapEvents(s, receiver, { domainId: (await seedDomain(s)).id }, { types: ['sender_identity.verified'] });
});
afterAll(async () => {
  await s?.close();
  await receiver?.close();
});

/** The identity's sender_identity.verified events the domain's webhook got, once every event written so far is delivered. */
const events = async (identityId: string) =>
  (await tap.settle()).filter((e) => e.type === 'sender_identity.verified' && e.data.id === identityId);

describe('confirmation mail and link', () => {
  it('creating an identity mails a working link; opening it verifies once and records one event', async () => {
    const made = await createIdentity(s, domain, { name: 'Sales' });
    const [mail] = await mailsTo(s, made.email);
    expect(mail.subject).toBe('Confirm your sender identity');
    const link = confirmLinkIn(mail);
    expect(link.startsWith(`${s.app.services.config.PUBLIC_URL}/confirm/identity?token=`)).toBe(true);
    expect(mail.html).toContain(link.replace(/&/g, '&#38;'));

    const first = await open(s, link);
    expect(first.status).toBe(200);
    expect(first.type).toContain('text/html');
    expect(first.text).toContain(made.email);

    const after = (await s.rest('GET', `/identities/${made.id}`)).body.data;
    expect(after.is_verified).toBe(true);
    const [row] = await sql(s, 'select verified_at from sender_identities where id = $1', [made.id]);
    expect(row.verified_at).toBeInstanceOf(Date);

    const rows = await events(made.id);
    expect(rows).toHaveLength(1);
    // An event of the identity's domain: its webhooks get it, another domain's do not.
    expect(elsewhere.bodies().filter((e) => e.data.id === made.id)).toEqual([]);
    const payload = rows[0].data;
    expect(Object.keys(payload).sort()).toEqual(['object', ...IDENTITY_KEYS].sort());
    expect(Object.keys(payload.domain).sort()).toEqual(DOMAIN_KEYS);
    expect(payload).toEqual({ object: 'sender_identity', ...after });

    // Opening it again is harmless: still verified, no second event.
    const second = await open(s, link);
    expect(second.status).toBe(200);
    expect(second.type).toContain('text/html');
    expect(await events(made.id)).toHaveLength(1);
  });

  it('two clicks at once still record one event', async () => {
    const made = await createIdentity(s, domain);
    const link = confirmLinkIn((await mailsTo(s, made.email))[0]);
    const answers = await Promise.all([open(s, link), open(s, link), open(s, link)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(await events(made.id)).toHaveLength(1);
  });

  it('the personal note is in the mail only when add_note is true', async () => {
    const withNote = await createIdentity(s, domain, { add_note: true, personal_note: 'Hi <team>, it is me.' });
    const without = await createIdentity(s, domain, { add_note: false, personal_note: 'Hidden note' });
    const [a] = await mailsTo(s, withNote.email);
    expect(a.text).toContain('Hi <team>, it is me.');
    expect(a.html).toContain('Hi &lt;team&gt;, it is me.');
    const [b] = await mailsTo(s, without.email);
    expect(b.text).not.toContain('Hidden note');
    expect(b.html).not.toContain('Hidden note');
  });

  it('refuses a tampered, garbage or missing token with 400, and changes nothing', async () => {
    const made = await createIdentity(s, domain);
    const link = new URL(confirmLinkIn((await mailsTo(s, made.email))[0]));
    const token = link.searchParams.get('token')!;
    const [payload, sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ id: made.id, email: made.email, x: 1 })).toString('base64url');
    const flipped = sig.slice(0, -1) + (sig.endsWith('A') ? 'B' : 'A');
    for (const bad of [`${forged}.${sig}`, `${payload}.${flipped}`, 'garbage', `${payload}`]) {
      const res = await open(s, `${link.origin}/confirm/identity?token=${encodeURIComponent(bad)}`);
      expect([bad, res.status]).toEqual([bad, 400]);
      expect(res.type).toContain('text/html');
    }
    expect((await open(s, `${link.origin}/confirm/identity`)).status).toBe(400);
    expect((await s.rest('GET', `/identities/${made.id}`)).body.data.is_verified).toBe(false);
    expect(await events(made.id)).toHaveLength(0);
  });

  it('404 page for an identity that no longer exists', async () => {
    const made = await createIdentity(s, domain);
    const link = confirmLinkIn((await mailsTo(s, made.email))[0]);
    expect((await s.rest('DELETE', `/identities/${made.id}`)).status).toBe(204);
    const res = await open(s, link);
    expect(res.status).toBe(404);
    expect(res.type).toContain('text/html');
    expect(await events(made.id)).toHaveLength(0);
  });

  it('a link stops working once the identity\'s address has changed', async () => {
    const made = await createIdentity(s, domain);
    const link = confirmLinkIn((await mailsTo(s, made.email))[0]);
    await sql(s, 'update sender_identities set email = $1 where id = $2', [addressAt(domain, 'moved'), made.id]);
    const res = await open(s, link);
    expect(res.status).toBe(400);
    expect((await s.rest('GET', `/identities/${made.id}`)).body.data.is_verified).toBe(false);
    expect(await events(made.id)).toHaveLength(0);
  });

  it('orders by verified_at with unverified identities last', async () => {
    const own = await seedDomain(s);
    const a = await createIdentity(s, own);
    const b = await createIdentity(s, own);
    const c = await createIdentity(s, own);
    for (const made of [b, a]) await open(s, confirmLinkIn((await mailsTo(s, made.email))[0]));
    const ids = async (order: string) =>
      (await s.rest('GET', `/identities?domain_id=${own.id}&order_by=verified_at&order=${order}`)).body.data.map((i: any) => i.id);
    expect(await ids('asc')).toEqual([b.id, a.id, c.id]);
    expect(await ids('desc')).toEqual([a.id, b.id, c.id]);
  });
});

describe('POST /v1/identities/{id}/resend', () => {
  it('sends the mail again and counts it; its link verifies', async () => {
    const made = await createIdentity(s, domain);
    await mailsTo(s, made.email, 1);
    const res = await s.rest('POST', `/identities/${made.id}/resend`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    expect(Object.keys(res.body.data).sort()).toEqual(IDENTITY_KEYS);
    expect(res.body.data).toMatchObject({ id: made.id, resends: 1, is_verified: false });
    const mails = await mailsTo(s, made.email, 2);
    expect(mails).toHaveLength(2);

    const again = await s.rest('POST', `/identities/${made.id}/resend`);
    expect(again.body.data.resends).toBe(2);
    await mailsTo(s, made.email, 3);

    expect((await open(s, confirmLinkIn(mails[0]))).status).toBe(200);
    expect(await events(made.id)).toHaveLength(1);
  });

  it('422 on email once verified, without another mail; 404 when unknown', async () => {
    const made = await createIdentity(s, domain);
    await open(s, confirmLinkIn((await mailsTo(s, made.email))[0]));
    const res = await s.rest('POST', `/identities/${made.id}/resend`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: 'The given data was invalid.', errors: { email: ['The sender identity is already verified.'] } });
    expect((await s.rest('GET', `/identities/${made.id}`)).body.data.resends).toBe(0);

    const missing = await s.rest('POST', '/identities/nope/resend');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Resource not found.' });
    await new Promise((r) => setTimeout(r, 1500));
    expect(await mailsTo(s, made.email)).toHaveLength(1);
  });

  it('a refused create sends no mail', async () => {
    const made = await createIdentity(s, domain);
    const dup = await s.rest('POST', '/identities', { body: { domain_id: domain.id, email: made.email } });
    expect(dup.status).toBe(422);
    await new Promise((r) => setTimeout(r, 1500));
    expect(await mailsTo(s, made.email)).toHaveLength(1);
  });
});
