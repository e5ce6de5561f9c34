import pg from 'pg';
import { createAccount, startTestServer, type TestServer } from '../support/server.js';

/**
 * A domain name belongs to one account, and so does every name under it: another account can
 * create neither a parent nor a child of it (that would let it claim inbound mail of the other's
 * names), nor a public suffix.
 */
let s: TestServer;
let other: { id: string; token: string };
beforeAll(async () => {
  s = await startTestServer();
  other = await createAccount(s, 'Neighbour');
});
afterAll(async () => {
  await s?.close();
});

const RELATIVE = 'The name is a parent or a subdomain of a domain of another account.';
const SUFFIX = 'The name is a public suffix (like co.uk): add a domain registered under it.';
const invalid = (message: string) => ({ message: 'The given data was invalid.', errors: { name: [message] } });

let n = 0;
/** A fresh `acmeN.test` family; every name is made resolvable in the test DNS. */
function family() {
  const base = `acme${++n}-${Date.now().toString(36)}.test`;
  const name = (prefix = '') => {
    const full = `${prefix}${base}`;
    s.dns.addName(full);
    return full;
  };
  return name;
}

const create = (name: string, token?: string) => s.rest('POST', '/domains', { token, body: { name } });
const count = async (name: string) => {
  const res = await s.rest('GET', '/domains?limit=100');
  const theirs = await s.rest('GET', '/domains?limit=100', { token: other.token });
  return [...res.body.data, ...theirs.body.data].filter((d: { name: string }) => d.name === name).length;
};

describe('POST /v1/domains across accounts', () => {
  it('refuses another account a parent, a child or a deeper child of a domain, and stores nothing', async () => {
    const name = family();
    expect((await create(name('mail.'))).status).toBe(201);
    for (const candidate of [name(), name('x.mail.'), name('in.x.mail.')]) {
      const res = await create(candidate, other.token);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(invalid(RELATIVE));
      expect(await count(candidate)).toBe(0);
    }
    // The same name is still "taken", for either account.
    expect((await create(name('mail.'), other.token)).body).toEqual(invalid('The name has already been taken.'));
  });

  it('lets one account hold a parent and children of its own domains, and others hold siblings', async () => {
    const name = family();
    expect((await create(name('mail.'))).status).toBe(201);
    expect((await create(name())).status).toBe(201);
    expect((await create(name('eu.mail.'))).status).toBe(201);
    // A sibling under a shared parent nobody holds is no relative.
    const sibling = family();
    expect((await create(sibling('a.'))).status).toBe(201);
    expect((await create(sibling('b.'), other.token)).status).toBe(201);
  });

  it('refuses a name that is itself a public suffix, ICANN or private', async () => {
    for (const name of ['co.uk', 'github.io', 'blogspot.com']) {
      const res = await create(name);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(invalid(SUFFIX));
    }
    const tld = await create('com');
    expect(tld.status).toBe(422);
    expect(Object.keys(tld.body.errors)).toEqual(['name']);
  });

  it('accepts names under a public suffix, including the reserved .test and .example', async () => {
    for (const name of ['shop.co.uk', 'someone.github.io', 'd1234abcd.example.test', 'acme.example']) {
      s.dns.addName(name);
      const res = await create(name);
      expect(res.status).toBe(201);
    }
  });

  it('of two accounts racing for a parent and its child, exactly one wins', async () => {
    for (let round = 0; round < 3; round++) {
      const name = family();
      const [parent, child] = await Promise.all([create(name()), create(name('mail.'), other.token)]);
      const statuses = [parent.status, child.status].sort();
      expect(statuses).toEqual([201, 422]);
      const loser = parent.status === 422 ? parent : child;
      expect(loser.body).toEqual(invalid(RELATIVE));
      expect((await count(name())) + (await count(name('mail.')))).toBe(1);
    }
  });

  it('still exactly one when both have checked before either inserts', async () => {
    // Holding a lock that blocks inserts into domains (not reads) lets both requests get past
    // every check and queue up to insert: only the creation lock can still tell them apart.
    const blocker = new pg.Client({ connectionString: s.dbUrl });
    await blocker.connect();
    try {
      const name = family();
      await blocker.query('begin');
      await blocker.query('lock table domains in share row exclusive mode');
      const racing = Promise.all([create(name()), create(name('mail.'), other.token)]);
      const deadline = Date.now() + 20_000;
      for (;;) {
        const { rows } = await blocker.query(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if (rows[0].n >= 2) break;
        if (Date.now() > deadline) throw new Error('the two creations never queued up');
        await new Promise((r) => setTimeout(r, 50));
      }
      await blocker.query('commit');
      const [parent, child] = await racing;
      expect([parent.status, child.status].sort()).toEqual([201, 422]);
      expect((parent.status === 422 ? parent : child).body).toEqual(invalid(RELATIVE));
      expect((await count(name())) + (await count(name('mail.')))).toBe(1);
    } finally {
      await blocker.end();
    }
  });

  it('answers the same 422 over GraphQL', async () => {
    const name = family();
    expect((await create(name('mail.'))).status).toBe(201);
    const res = await s.gql(`mutation($name: String!) { create_domain(name: $name) { id } }`, { name: name() }, other.token);
    expect(res.body.errors[0]).toMatchObject({
      message: 'The given data was invalid.',
      extensions: { code: 'VALIDATION_FAILED', errors: { name: [RELATIVE] } },
    });
  });
});
