import nodemailer from 'nodemailer';
import { seedDomain } from '../support/factories.js';
import { createAccount, startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { sql, until } from '../sending/helpers.js';

/**
 * Inbound mail of one account's names can be neither routed nor claimed by another account: a
 * route needs a verified domain, an inbound domain belongs to one account, and mail is matched
 * among the routes of the account that owns the recipient's domain only.
 */
let s: TestServer;
let sink: SmtpSink;
let attacker: { id: string; token: string };
let seq = 0;

beforeAll(async () => {
  sink = await startSmtpSink();
  s = await startTestServer({ roles: ['api', 'worker', 'smtp'], env: { SMTP_PORT: '0', MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}` } });
  attacker = await createAccount(s, 'Attacker');
}, 60_000);
afterAll(async () => {
  await s?.close();
  await sink?.close();
});

const NOT_VERIFIED = 'The domain must be verified before it can receive inbound mail.';
const TAKEN = 'The inbound domain is already used by another account.';
const invalid = (errors: Record<string, string[]>) => ({ message: 'The given data was invalid.', errors });
const mx = () => nodemailer.createTransport({ host: '127.0.0.1', port: s.app.smtpPort!, secure: false, ignoreTLS: true });

function routeBody(domainId: string, extra: Record<string, unknown> = {}) {
  return { domain_id: domainId, name: `route ${++seq}`, forwards: [{ type: 'webhook', value: 'https://hooks.example.com/in' }], ...extra };
}

const routeCount = async (accountId?: string) =>
  (await sql(s, 'select count(*)::int as n from inbounds' + (accountId ? ' where account_id = ?' : ''), accountId ? [accountId] : []))[0].n;

describe('a route needs a verified domain', () => {
  it('refuses to create a route on an unverified domain, storing nothing', async () => {
    const unverified = await seedDomain(s, { verified: false });
    const before = await routeCount();
    const res = await s.rest('POST', '/inbound', { body: routeBody(unverified.id) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid({ domain_id: [NOT_VERIFIED] }));
    const gql = await s.gql(
      `mutation($d: ID!) { create_inbound(domain_id: $d, name: "x", forwards: [{ type: "webhook", value: "https://hooks.example.com/x" }]) { id } }`,
      { d: unverified.id },
    );
    expect(gql.body.errors[0]).toMatchObject({ extensions: { code: 'VALIDATION_FAILED', errors: { domain_id: [NOT_VERIFIED] } } });
    expect(await routeCount()).toBe(before);
  });

  it('refuses to update a route whose domain is no longer verified, changing nothing', async () => {
    const domain = await seedDomain(s);
    const made = await s.rest('POST', '/inbound', { body: routeBody(domain.id, { name: 'before' }) });
    expect(made.status).toBe(201);
    // The domain's DNS no longer holds its records: a check makes it unverified.
    expect((await s.rest('GET', `/domains/${domain.id}/verify`)).body.data).toMatchObject({ dkim: false, spf: false });
    const res = await s.rest('PUT', `/inbound/${made.body.data.id}`, { body: { name: 'after' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid({ domain_id: [NOT_VERIFIED] }));
    expect((await s.rest('GET', `/inbound/${made.body.data.id}`)).body.data.name).toBe('before');
  });
});

describe('an inbound domain belongs to one account', () => {
  let base: string;
  let victimDomain: { id: string; name: string };
  let legacyParent: { id: string; name: string };
  let victimRoute: { id: string; address: string };

  beforeAll(async () => {
    base = `acme${Date.now().toString(36)}.test`;
    victimDomain = await seedDomain(s, { name: `mail.${base}` });
    // Through the API, the attacker cannot take the parent of the victim's domain ...
    s.dns.addName(base);
    const parent = await s.rest('POST', '/domains', { token: attacker.token, body: { name: base } });
    expect(parent.status).toBe(422);
    // ... but data from before that rule may hold it (seeded straight into the database, verified).
    legacyParent = await seedDomain(s, { accountId: attacker.id, name: base });
    const made = await s.rest('POST', '/inbound', {
      body: routeBody(victimDomain.id, {
        domain_enabled: true,
        inbound_domain: `in.mail.${base}`,
        forwards: [{ type: 'email', value: `victim-desk@mail.${base}` }],
      }),
    });
    expect(made.status).toBe(201);
    victimRoute = made.body.data;
  });

  it('refuses another account an inbound domain the victim routes, or one under the victim\'s domain', async () => {
    const before = await routeCount(attacker.id);
    for (const host of [`in.mail.${base}`, `other.mail.${base}`, `deep.in.mail.${base}`]) {
      const res = await s.rest('POST', '/inbound', {
        token: attacker.token,
        body: routeBody(legacyParent.id, { domain_enabled: true, inbound_domain: host }),
      });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(invalid({ inbound_domain: [TAKEN] }));
    }
    // Nor by renaming a route it has.
    const own = await s.rest('POST', '/inbound', {
      token: attacker.token,
      body: routeBody(legacyParent.id, { domain_enabled: true, inbound_domain: `own.${base}` }),
    });
    expect(own.status).toBe(201);
    const moved = await s.rest('PUT', `/inbound/${own.body.data.id}`, { token: attacker.token, body: { inbound_domain: `in.mail.${base}` } });
    expect(moved.body).toEqual(invalid({ inbound_domain: [TAKEN] }));
    expect(await routeCount(attacker.id)).toBe(before + 1);
    expect((await s.rest('GET', `/inbound/${own.body.data.id}`, { token: attacker.token })).body.data.inbound_domain).toBe(`own.${base}`);
  });

  it('delivers mail for the victim\'s inbound domain to the victim\'s route only, even past a stored rival route', async () => {
    // A rival route from before these rules: same inbound domain, top priority, on the attacker's parent domain.
    const rival = await s.rest('POST', '/inbound', {
      token: attacker.token,
      body: routeBody(legacyParent.id, {
        domain_enabled: true,
        inbound_domain: `rival.${base}`,
        inbound_priority: 100,
        forwards: [{ type: 'email', value: `loot@${base}` }],
      }),
    });
    expect(rival.status).toBe(201);
    await sql(s, 'update inbounds set inbound_domain = ? where id = ?', [`in.mail.${base}`, rival.body.data.id]);

    const info = await mx().sendMail({ from: 'customer@sender.example', to: `help@in.mail.${base}`, subject: 'For the victim', text: 'Private.' });
    expect(info.response).toMatch(/^250 /);
    await sink.waitFor(`victim-desk@mail.${base}`);
    // Addressed to the rival route's own address too: that route takes its own copy, not the victim's recipient.
    const both = await mx().sendMail({
      from: 'customer@sender.example',
      to: [rival.body.data.address, `billing@in.mail.${base}`],
      subject: 'Mixed',
      text: 'x',
    });
    expect(both.response).toMatch(/^250 /);

    const rows = await until(async () => {
      const r = await sql(s, 'select inbound_id, rcpt_to, status from inbound_messages where inbound_id in (?, ?) order by created_at', [
        victimRoute.id,
        rival.body.data.id,
      ]);
      return r.length === 3 ? r : null;
    });
    const of = (id: string) => rows.filter((r) => r.inbound_id === id).map((r) => r.rcpt_to);
    expect(of(victimRoute.id)).toEqual([[`help@in.mail.${base}`], [`billing@in.mail.${base}`]]);
    expect(of(rival.body.data.id)).toEqual([[rival.body.data.address]]);
    const loot = sink.received.filter((m) => m.to.includes(`loot@${base}`));
    expect(loot.map((m) => /^Subject: (.*)$/m.exec(m.raw)?.[1])).toEqual(['Mixed']);
  });

  it('refuses a recipient at a name of the victim that no route of the victim takes', async () => {
    const refused = await mx()
      .sendMail({ from: 'customer@sender.example', to: `x@nothing.mail.${base}`, subject: 'x', text: 'x' })
      .catch((e) => e);
    expect(refused.responseCode).toBe(530);
  });
});
