import { seedDomain } from '../support/factories.js';
import { createAccount, ISO, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { addressAt, createIdentity, DOMAIN_KEYS, IDENTITY_KEYS, OFF_DOMAIN } from './helpers.js';

let s: TestServer;
let domain: { id: string; name: string };
beforeAll(async () => {
  s = await startTestServer();
  domain = await seedDomain(s);
});
afterAll(async () => {
  await s?.close();
});

const NOT_FOUND = { message: 'Resource not found.' };
const invalid = (key: string, message: string) => ({ message: 'The given data was invalid.', errors: { [key]: [message] } });
const enc = encodeURIComponent;

function expectRecord(d: any) {
  expect(Object.keys(d).sort()).toEqual(IDENTITY_KEYS);
  expect(Object.keys(d.domain).sort()).toEqual(DOMAIN_KEYS);
  expect(d.domain.created_at).toMatch(ISO);
  expect(d.domain.updated_at).toMatch(ISO);
  expect(typeof d.is_verified).toBe('boolean');
  expect(Number.isInteger(d.resends)).toBe(true);
}

describe('POST /v1/identities', () => {
  it('answers 201 with the record; name defaults to the part before @', async () => {
    const email = addressAt(domain, 'hello');
    const res = await s.rest('POST', '/identities', { body: { domain_id: domain.id, email } });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['data']);
    expectRecord(res.body.data);
    expect(res.body.data).toMatchObject({
      email,
      name: email.split('@')[0],
      reply_to_email: null,
      reply_to_name: null,
      is_verified: false,
      resends: 0,
      add_note: false,
      personal_note: null,
      domain: { id: domain.id, name: domain.name },
    });
  });

  it('stores every optional field, and accepts an address at a subdomain', async () => {
    const email = `news@mail.${domain.name}`;
    const body = {
      domain_id: domain.id,
      email,
      name: 'Newsroom',
      reply_to_email: 'desk@example.org',
      reply_to_name: 'Desk',
      add_note: true,
      personal_note: 'Please confirm, thanks!',
    };
    const res = await s.rest('POST', '/identities', { body });
    expect(res.status).toBe(201);
    const { domain_id: _d, ...rest } = body;
    expect(res.body.data).toMatchObject({ ...rest, is_verified: false, resends: 0 });
  });

  it('refuses an address taken in the account, in any case', async () => {
    const first = await createIdentity(s, domain);
    for (const email of [first.email, first.email.toUpperCase()]) {
      const res = await s.rest('POST', '/identities', { body: { domain_id: domain.id, email } });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(invalid('email', 'The email has already been taken.'));
    }
  });

  it('refuses a domain of another account, and an address outside the domain', async () => {
    const other = await createAccount(s, 'Domain owner');
    const foreign = await seedDomain(s, { token: other.token });
    const res = await s.rest('POST', '/identities', { body: { domain_id: foreign.id, email: addressAt(foreign) } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid('domain_id', 'The selected domain id is invalid.'));

    for (const email of ['a@elsewhere.example', `a@x${domain.name}`, `a@${domain.name}.evil.test`]) {
      const off = await s.rest('POST', '/identities', { body: { domain_id: domain.id, email } });
      expect([email, off.status, off.body]).toEqual([email, 422, invalid('email', OFF_DOMAIN)]);
    }
  });

  it.each([
    [{ domain_id: undefined }, 'domain_id', 'The domain id field is required.'],
    [{ email: undefined }, 'email', 'The email field is required.'],
    [{ email: ' ' }, 'email', 'The email field is required.'],
    [{ domain_id: 'nope' }, 'domain_id', 'The selected domain id is invalid.'],
    [{ email: 'not-an-email' }, 'email', 'The email must be a valid email address.'],
    [{ email: 42 }, 'email', 'The email must be a string.'],
    [{ name: 'n'.repeat(192) }, 'name', 'The name may not be greater than 191 characters.'],
    [{ reply_to_email: 'nope' }, 'reply_to_email', 'The reply to email must be a valid email address.'],
    [{ reply_to_name: 'Desk' }, 'reply_to_email', 'The reply to email field is required when reply to name is present.'],
    [
      { reply_to_name: 'r'.repeat(192), reply_to_email: 'r@example.org' },
      'reply_to_name',
      'The reply to name may not be greater than 191 characters.',
    ],
    [{ personal_note: 'p'.repeat(251) }, 'personal_note', 'The personal note may not be greater than 250 characters.'],
    [{ add_note: 'yes' }, 'add_note', 'The add note field must be true or false.'],
  ])('422 for %j', async (patch, key, message) => {
    const body = { domain_id: domain.id, email: addressAt(domain), ...patch };
    const res = await s.rest('POST', '/identities', { body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid(key, message));
  });

  it('422 for addresses longer than 320 characters', async () => {
    const long = `a@${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.${domain.name}`;
    const res = await s.rest('POST', '/identities', { body: { domain_id: domain.id, email: long } });
    expect(res.status).toBe(422);
    expect(res.body.errors.email).toContain('The email may not be greater than 320 characters.');
    const reply = await s.rest('POST', '/identities', {
      body: { domain_id: domain.id, email: addressAt(domain), reply_to_email: long },
    });
    expect(reply.status).toBe(422);
    expect(reply.body.errors.reply_to_email).toContain('The reply to email may not be greater than 320 characters.');
  });
});

describe('GET /v1/identities', () => {
  let listDomain: { id: string; name: string };
  const made: any[] = [];
  beforeAll(async () => {
    listDomain = await seedDomain(s);
    for (const local of ['charlie', 'alpha', 'Bravo']) {
      const res = await s.rest('POST', '/identities', { body: { domain_id: listDomain.id, email: `${local}@${listDomain.name}` } });
      made.push(res.body.data);
    }
  });

  it('lists with only data, filtered by domain_id, newest first', async () => {
    const res = await s.rest('GET', `/identities?domain_id=${listDomain.id}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['data']);
    res.body.data.forEach(expectRecord);
    expect(res.body.data.map((i: any) => i.id)).toEqual(made.map((i) => i.id).reverse());
  });

  it('filters by a case-insensitive part of the address', async () => {
    const res = await s.rest('GET', `/identities?domain_id=${listDomain.id}&query=BRAV`);
    expect(res.body.data.map((i: any) => i.email)).toEqual([`Bravo@${listDomain.name}`]);
    const none = await s.rest('GET', `/identities?query=${enc('%')}`);
    expect(none.body.data).toEqual([]);
  });

  it('orders by email, created_at and verified_at, both ways', async () => {
    const emails = async (q: string) =>
      (await s.rest('GET', `/identities?domain_id=${listDomain.id}&${q}`)).body.data.map((i: any) => i.email.split('@')[0]);
    expect(await emails('order_by=email&order=asc')).toEqual(['Bravo', 'alpha', 'charlie'].sort());
    expect(await emails('order_by=email&order=desc')).toEqual(['Bravo', 'alpha', 'charlie'].sort().reverse());
    expect(await emails('order_by=created_at&order=asc')).toEqual(['charlie', 'alpha', 'Bravo']);
    expect(await emails('order_by=verified_at&order=desc')).toHaveLength(3);
  });

  it('pages with page and limit', async () => {
    const pageDomain = await seedDomain(s);
    for (let i = 0; i < 27; i++) await createIdentity(s, pageDomain);
    const page = async (q: string) => (await s.rest('GET', `/identities?domain_id=${pageDomain.id}&${q}`)).body.data;
    const first = await page('limit=10&page=1');
    const third = await page('limit=10&page=3');
    expect(first).toHaveLength(10);
    expect(third).toHaveLength(7);
    const ids = new Set(first.map((i: any) => i.id));
    for (const i of third) expect(ids.has(i.id)).toBe(false);
    expect(await page('page=1')).toHaveLength(25);
    expect(await page('page=2')).toHaveLength(2);
  });

  it.each([
    ['order_by=name', 'order_by', 'The selected order by is invalid.'],
    ['order=up', 'order', 'The selected order is invalid.'],
    ['limit=9', 'limit', 'The limit must be at least 10.'],
    ['limit=101', 'limit', 'The limit may not be greater than 100.'],
    ['limit=x', 'limit', 'The limit must be an integer.'],
    ['page=0', 'page', 'The page must be at least 1.'],
  ])('422 for ?%s', async (q, key, message) => {
    const res = await s.rest('GET', `/identities?${q}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid(key, message));
  });

  it('404 for a domain_id that is not the account\'s', async () => {
    const res = await s.rest('GET', '/identities?domain_id=nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });
});

describe('GET /v1/identities/{id} and /email/{email}', () => {
  it('answers the record by id and by address (any case); 404 when unknown', async () => {
    const made = await createIdentity(s, domain);
    const byId = await s.rest('GET', `/identities/${made.id}`);
    expect(byId.status).toBe(200);
    expectRecord(byId.body.data);
    expect(byId.body.data).toEqual(made);
    const byEmail = await s.rest('GET', `/identities/email/${enc(made.email.toUpperCase())}`);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.data).toEqual(made);

    for (const path of ['/identities/nope', `/identities/email/${enc(`nobody@${domain.name}`)}`]) {
      const res = await s.rest('GET', path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
  });
});

describe('PUT /v1/identities/{id} and /email/{email}', () => {
  it('changes the given fields only', async () => {
    const made = await createIdentity(s, domain, { name: 'Before', personal_note: 'keep me' });
    const res = await s.rest('PUT', `/identities/${made.id}`, {
      body: { name: 'After', reply_to_email: 'reply@example.org', reply_to_name: 'Reply', add_note: true },
    });
    expect(res.status).toBe(200);
    expectRecord(res.body.data);
    expect(res.body.data).toMatchObject({
      id: made.id,
      email: made.email,
      name: 'After',
      reply_to_email: 'reply@example.org',
      reply_to_name: 'Reply',
      add_note: true,
      personal_note: 'keep me',
    });

    const byEmail = await s.rest('PUT', `/identities/email/${enc(made.email)}`, {
      body: { reply_to_name: null, reply_to_email: null, personal_note: 'new note' },
    });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.data).toMatchObject({ name: 'After', reply_to_email: null, reply_to_name: null, personal_note: 'new note' });
    expect((await s.rest('GET', `/identities/${made.id}`)).body.data).toEqual(byEmail.body.data);
  });

  it('a reply-to name needs a reply-to address, sent or stored', async () => {
    const made = await createIdentity(s, domain);
    const res = await s.rest('PUT', `/identities/${made.id}`, { body: { reply_to_name: 'Desk' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid('reply_to_email', 'The reply to email field is required when reply to name is present.'));
    await s.rest('PUT', `/identities/${made.id}`, { body: { reply_to_email: 'desk@example.org' } });
    const ok = await s.rest('PUT', `/identities/${made.id}`, { body: { reply_to_name: 'Desk' } });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ reply_to_email: 'desk@example.org', reply_to_name: 'Desk' });
  });

  it.each([
    [{ name: 'n'.repeat(192) }, 'name', 'The name may not be greater than 191 characters.'],
    [{ name: '  ' }, 'name', 'The name field is required.'],
    [{ reply_to_email: 'bad' }, 'reply_to_email', 'The reply to email must be a valid email address.'],
    [{ reply_to_name: 'r'.repeat(192) }, 'reply_to_name', 'The reply to name may not be greater than 191 characters.'],
    [{ personal_note: 'p'.repeat(251) }, 'personal_note', 'The personal note may not be greater than 250 characters.'],
    [{ add_note: 'no' }, 'add_note', 'The add note field must be true or false.'],
  ])('422 for %j, by id and by address', async (body, key, message) => {
    const made = await createIdentity(s, domain);
    for (const path of [`/identities/${made.id}`, `/identities/email/${enc(made.email)}`]) {
      const res = await s.rest('PUT', path, { body });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(invalid(key, message));
    }
  });

  it('404 for an unknown id or address', async () => {
    for (const path of ['/identities/nope', `/identities/email/${enc(`nobody@${domain.name}`)}`]) {
      const res = await s.rest('PUT', path, { body: { name: 'x' } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
  });
});

describe('DELETE /v1/identities/{id} and /email/{email}', () => {
  it('answers an empty 204, then 404', async () => {
    const a = await createIdentity(s, domain);
    const b = await createIdentity(s, domain);
    for (const path of [`/identities/${a.id}`, `/identities/email/${enc(b.email)}`]) {
      const res = await s.rest('DELETE', path);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const again = await s.rest('DELETE', path);
      expect(again.status).toBe(404);
      expect(again.body).toEqual(NOT_FOUND);
    }
    expect((await s.rest('GET', `/identities/${a.id}`)).status).toBe(404);
    expect((await s.rest('GET', `/identities/${b.id}`)).status).toBe(404);
  });
});

describe('auth', () => {
  it('401 without a token or with an unknown one', async () => {
    for (const token of [null, 'mlsn.unknown']) {
      const res = await s.rest('GET', '/identities', { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: 'Unauthenticated.' });
    }
  });

  it('403 without the scope; sender_identity_read reads but does not write', async () => {
    const made = await createIdentity(s, domain);
    const none = await tokenWith(s, ['domains_read']);
    const read = await tokenWith(s, ['sender_identity_read']);
    const reads: [string, string, unknown?][] = [
      ['GET', '/identities'],
      ['GET', `/identities/${made.id}`],
      ['GET', `/identities/email/${enc(made.email)}`],
    ];
    const writes: [string, string, unknown?][] = [
      ['POST', '/identities', { domain_id: domain.id, email: addressAt(domain) }],
      ['PUT', `/identities/${made.id}`, { name: 'x' }],
      ['PUT', `/identities/email/${enc(made.email)}`, { name: 'x' }],
      ['POST', `/identities/${made.id}/resend`],
      ['DELETE', `/identities/${made.id}`],
      ['DELETE', `/identities/email/${enc(made.email)}`],
    ];
    for (const [method, path, body] of [...reads, ...writes]) {
      const res = await s.rest(method, path, { token: none, body });
      expect([method, path, res.status]).toEqual([method, path, 403]);
      expect(typeof res.body.message).toBe('string');
    }
    for (const [method, path] of reads) expect((await s.rest(method, path, { token: read })).status).toBe(200);
    for (const [method, path, body] of writes) {
      expect([method, path, (await s.rest(method, path, { token: read, body })).status]).toEqual([method, path, 403]);
    }
  });

  it('a domain-limited token sees and touches only its domain', async () => {
    const mineDomain = await seedDomain(s);
    const mine = await createIdentity(s, mineDomain);
    const theirs = await createIdentity(s, domain);
    const limited = await tokenWith(s, ['sender_identity_full'], mineDomain.id);

    const list = await s.rest('GET', '/identities', { token: limited });
    expect(list.body.data.map((i: any) => i.id)).toEqual([mine.id]);
    expect((await s.rest('GET', `/identities/${mine.id}`, { token: limited })).status).toBe(200);
    const created = await s.rest('POST', '/identities', { token: limited, body: { domain_id: mineDomain.id, email: addressAt(mineDomain) } });
    expect(created.status).toBe(201);

    const calls: [string, string, unknown?][] = [
      ['GET', `/identities?domain_id=${domain.id}`],
      ['GET', `/identities/${theirs.id}`],
      ['GET', `/identities/email/${enc(theirs.email)}`],
      ['POST', '/identities', { domain_id: domain.id, email: addressAt(domain) }],
      ['PUT', `/identities/${theirs.id}`, { name: 'x' }],
      ['PUT', `/identities/email/${enc(theirs.email)}`, { name: 'x' }],
      ['POST', `/identities/${theirs.id}/resend`],
      ['DELETE', `/identities/${theirs.id}`],
      ['DELETE', `/identities/email/${enc(theirs.email)}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await s.rest(method, path, { token: limited, body });
      expect([method, path, res.status]).toEqual([method, path, 403]);
    }
    expect((await s.rest('GET', `/identities/${theirs.id}`)).body.data).toEqual(theirs);
  });

  it('another account gets 404 for these identities and never lists them', async () => {
    const other = await createAccount(s);
    const made = await createIdentity(s, domain);
    const calls: [string, string, unknown?][] = [
      ['GET', `/identities/${made.id}`],
      ['GET', `/identities/email/${enc(made.email)}`],
      ['PUT', `/identities/${made.id}`, { name: 'x' }],
      ['PUT', `/identities/email/${enc(made.email)}`, { name: 'x' }],
      ['POST', `/identities/${made.id}/resend`],
      ['DELETE', `/identities/${made.id}`],
      ['DELETE', `/identities/email/${enc(made.email)}`],
      ['GET', `/identities?domain_id=${domain.id}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await s.rest(method, path, { token: other.token, body });
      expect([method, path, res.status, res.body]).toEqual([method, path, 404, NOT_FOUND]);
    }
    const list = await s.rest('GET', '/identities?limit=100', { token: other.token });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    expect((await s.rest('GET', `/identities/${made.id}`)).body.data).toEqual(made);
  });
});
