import { Identity, type MailerSend } from 'mailersend';
import { createAccount, ISO, startTestServer, type TestServer } from '../support/server.js';
import { failure, INVALID, mailsTo, NOT_FOUND, sdkDomain, sdkFor, UNKNOWN_ID } from './sdk.js';

let s: TestServer;
let ms: MailerSend;
let other: MailerSend;
let domain: { id: string; name: string };
beforeAll(async () => {
  s = await startTestServer();
  ms = sdkFor(s);
  other = sdkFor(s, (await createAccount(s)).token);
  domain = await sdkDomain(s, ms);
});
afterAll(async () => {
  await s?.close();
});

const IDENTITY_KEYS = [
  'add_note', 'domain', 'email', 'id', 'is_verified', 'name', 'personal_note', 'reply_to_email', 'reply_to_name', 'resends',
];

let seq = 0;
const addressAt = (d: { name: string }, local = 'sender') => `${local}${++seq}@${d.name}`;

describe('ms.email.identity', () => {
  const idm = () => ms.email.identity;
  const made = async (email = addressAt(domain)) => (await idm().create(new Identity(domain.id, email))).body.data;

  it('create answers 201 with the identity and mails a confirmation', async () => {
    const email = addressAt(domain, 'news');
    const res = await idm().create(
      new Identity(domain.id, email).setName('Newsroom').setReplyToEmail('desk@example.org').setReplyToName('Desk')
        .setAddNote(true).setPersonalNote('Please confirm'),
    );
    expect(res.statusCode).toBe(201);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(IDENTITY_KEYS);
    expect(d).toMatchObject({
      email, name: 'Newsroom', reply_to_email: 'desk@example.org', reply_to_name: 'Desk', add_note: true,
      personal_note: 'Please confirm', is_verified: false, resends: 0, domain: { id: domain.id, name: domain.name },
    });
    expect(d.domain.created_at).toMatch(ISO);
    expect(await mailsTo(s, email)).toHaveLength(1);
  });

  it('list filters by domain and query; single and getByEmail answer the same record', async () => {
    const d = await made(addressAt(domain, 'findme'));
    const list = await idm().list({ domain_id: domain.id, query: 'findme', order_by: 'email', order: 'asc', page: 1, limit: 10 });
    expect(list.statusCode).toBe(200);
    expect(list.body.data.map((x: { id: string }) => x.id)).toEqual([d.id]);

    const one = await idm().single(d.id);
    expect(one.statusCode).toBe(200);
    expect(one.body.data).toEqual(d);
    const byEmail = await idm().singleByEmail(d.email);
    expect(byEmail.statusCode).toBe(200);
    expect(byEmail.body.data).toEqual(d);
  });

  it('getByEmail works for an address with a plus sign (the SDK does not encode it)', async () => {
    const d = await made(`first+tag${++seq}@${domain.name}`);
    expect((await idm().singleByEmail(d.email)).body.data.id).toBe(d.id);
  });

  it('update and updateByEMail change the record', async () => {
    const d = await made();
    const res = await idm().update(d.id, { name: 'Renamed', reply_to_email: 'r@example.org', reply_to_name: 'R' });
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ id: d.id, name: 'Renamed', reply_to_email: 'r@example.org', reply_to_name: 'R' });
    const byEmail = await idm().updateByEMail(d.email, { name: 'Again' });
    expect(byEmail.statusCode).toBe(200);
    expect(byEmail.body.data).toMatchObject({ id: d.id, name: 'Again', reply_to_email: 'r@example.org' });
  });

  it('resend mails the confirmation again and counts it', async () => {
    const d = await made();
    await mailsTo(s, d.email, 1);
    const res = await idm().resend(d.id);
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ id: d.id, resends: 1, is_verified: false });
    expect(await mailsTo(s, d.email, 2)).toHaveLength(2);
  });

  it('delete and deleteByEmail answer 204; the identity is gone', async () => {
    const a = await made();
    const b = await made();
    const byId = await idm().delete(a.id);
    expect(byId.statusCode).toBe(204);
    expect(byId.body).toBeFalsy();
    const byEmail = await idm().deleteByEmail(b.email);
    expect(byEmail.statusCode).toBe(204);
    expect(await failure(idm().single(a.id))).toEqual({ status: 404, body: NOT_FOUND });
    expect(await failure(idm().singleByEmail(b.email))).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('404 for an unknown id or address on every call', async () => {
    const nobody = `nobody@${domain.name}`;
    for (const call of [
      () => idm().single(UNKNOWN_ID),
      () => idm().singleByEmail(nobody),
      () => idm().update(UNKNOWN_ID, { name: 'x' }),
      () => idm().updateByEMail(nobody, { name: 'x' }),
      () => idm().resend(UNKNOWN_ID),
      () => idm().delete(UNKNOWN_ID),
      () => idm().deleteByEmail(nobody),
    ]) {
      expect(await failure(call())).toEqual({ status: 404, body: NOT_FOUND });
    }
  });

  it('422 through the SDK error', async () => {
    const taken = await made();
    expect(await failure(idm().create(new Identity(domain.id, taken.email)))).toEqual({
      status: 422,
      body: { message: INVALID, errors: { email: ['The email has already been taken.'] } },
    });
    const long = await failure(idm().create(new Identity(domain.id, addressAt(domain)).setPersonalNote('x'.repeat(251))));
    expect(long.status).toBe(422);
    expect(Object.keys(long.body.errors)).toEqual(['personal_note']);
    const name = await failure(idm().update(taken.id, { name: 'x'.repeat(192) }));
    expect(name.status).toBe(422);
    expect(Object.keys(name.body.errors)).toEqual(['name']);
  });

  it('another account reaches none of these identities', async () => {
    const d = await made();
    const theirs = other.email.identity;
    for (const call of [
      () => theirs.single(d.id),
      () => theirs.singleByEmail(d.email),
      () => theirs.update(d.id, { name: 'theirs' }),
      () => theirs.updateByEMail(d.email, { name: 'theirs' }),
      () => theirs.resend(d.id),
      () => theirs.delete(d.id),
      () => theirs.deleteByEmail(d.email),
    ]) {
      expect(await failure(call())).toEqual({ status: 404, body: NOT_FOUND });
    }
    const list = await theirs.list({ limit: 100 });
    expect(list.body.data.map((x: { id: string }) => x.id)).not.toContain(d.id);
    // My domain is not theirs to create under.
    const create = await failure(theirs.create(new Identity(domain.id, addressAt(domain))));
    expect(create.status).toBe(422);
    expect(Object.keys(create.body.errors)).toEqual(['domain_id']);
    expect((await idm().single(d.id)).body.data.name).toBe(d.name);
  });
});
