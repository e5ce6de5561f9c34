import type { MailerSend } from 'mailersend';
import { createAccount, ISO, startTestServer, type TestServer } from '../support/server.js';
import { failure, INVALID, NOT_FOUND, sdkDomain, sdkFor, UNKNOWN_ID } from './sdk.js';

let s: TestServer;
let ms: MailerSend;
let other: MailerSend;
let domain: { id: string; name: string };
let otherDomain: { id: string; name: string };
beforeAll(async () => {
  s = await startTestServer();
  ms = sdkFor(s);
  other = sdkFor(s, (await createAccount(s)).token);
  domain = await sdkDomain(s, ms);
  otherDomain = await sdkDomain(s, other);
});
afterAll(async () => {
  await s?.close();
});

const SMTP_KEYS = ['accessed_at', 'created_at', 'domain_id', 'enabled', 'id', 'name', 'port', 'server', 'username'];

describe('ms.email.smtpUser', () => {
  const smtp = () => ms.email.smtpUser;
  const made = async (name = 'relay') => (await smtp().create(domain.id, { name })).body.data;

  it('create answers 201 with the password, once', async () => {
    const res = await smtp().create(domain.id, { name: 'Relay', enabled: false });
    expect(res.statusCode).toBe(201);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual([...SMTP_KEYS, 'password'].sort());
    expect(d).toMatchObject({ name: 'Relay', enabled: false, domain_id: domain.id, accessed_at: null });
    expect(d.password).toEqual(expect.any(String));
    expect(d.username).toMatch(new RegExp(`@${domain.name.replace(/\./g, '\\.')}$`));
    expect(Number.isInteger(d.port)).toBe(true);
    expect(d.created_at).toMatch(ISO);
  });

  it('list and single answer the user without its password', async () => {
    const u = await made('Listed');
    const list = await smtp().list(domain.id, { page: 1, limit: 100 });
    expect(list.statusCode).toBe(200);
    const row = list.body.data.find((x: { id: string }) => x.id === u.id);
    expect(Object.keys(row).sort()).toEqual(SMTP_KEYS);
    const one = await smtp().single(domain.id, u.id);
    expect(one.statusCode).toBe(200);
    expect(one.body.data).toEqual(row);
  });

  it('update changes name and enabled', async () => {
    const u = await made('Before');
    const res = await smtp().update(domain.id, u.id, { name: 'After', enabled: false });
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ id: u.id, name: 'After', enabled: false });
    expect(res.body.data).not.toHaveProperty('password');
  });

  it('delete answers 204; the user is gone', async () => {
    const u = await made('Doomed');
    const res = await smtp().delete(domain.id, u.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBeFalsy();
    expect(await failure(smtp().single(domain.id, u.id))).toEqual({ status: 404, body: NOT_FOUND });
  });

  it('404 for an unknown user or domain', async () => {
    const u = await made();
    for (const call of [
      () => smtp().single(domain.id, UNKNOWN_ID),
      () => smtp().update(domain.id, UNKNOWN_ID, { name: 'x' }),
      () => smtp().delete(domain.id, UNKNOWN_ID),
      () => smtp().list(UNKNOWN_ID),
      () => smtp().create(UNKNOWN_ID, { name: 'x' }),
      () => smtp().single(UNKNOWN_ID, u.id),
    ]) {
      expect(await failure(call())).toEqual({ status: 404, body: NOT_FOUND });
    }
  });

  it('422 through the SDK error', async () => {
    const long = await failure(smtp().create(domain.id, { name: 'x'.repeat(51) }));
    expect(long).toEqual({ status: 422, body: { message: INVALID, errors: { name: ['The name may not be greater than 50 characters.'] } } });
    const u = await made();
    const bad = await failure(smtp().update(domain.id, u.id, { name: 'x'.repeat(51) }));
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['name']);
  });

  it('another account reaches none of these users', async () => {
    const u = await made('Mine');
    const theirs = other.email.smtpUser;
    for (const call of [
      () => theirs.list(domain.id),
      () => theirs.single(domain.id, u.id),
      () => theirs.update(domain.id, u.id, { name: 'theirs' }),
      () => theirs.delete(domain.id, u.id),
      () => theirs.create(domain.id, { name: 'intruder' }),
      // Their own domain does not open a path to my user either.
      () => theirs.single(otherDomain.id, u.id),
    ]) {
      expect(await failure(call())).toEqual({ status: 404, body: NOT_FOUND });
    }
    expect((await smtp().single(domain.id, u.id)).body.data.name).toBe('Mine');
  });
});
