import nodemailer from 'nodemailer';
import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { sql, until } from '../sending/helpers.js';

/**
 * A domain's `inbound_routing_enabled`: on by default; off, every inbound route of the
 * domain is refused at RCPT TO with a 550 that says why, by its own address and by inbound
 * domain. Routes can still be created and keep their settings; turning it on again routes them.
 */
let s: TestServer;
let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
  s = await startTestServer({
    roles: ['api', 'worker', 'smtp'],
    env: { SMTP_PORT: '0', MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`, DOMAIN_REQUIRE_DNS: 'false' },
  });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await sink?.close();
});

const mx = () => nodemailer.createTransport({ host: '127.0.0.1', port: s.app.smtpPort!, secure: false, ignoreTLS: true });
const send = (to: string, subject: string) =>
  mx().sendMail({ from: 'alice@sender.example', to, subject, text: 'Hello.' }).then((i) => i, (e) => e);
const setRouting = (domainId: string, on: boolean) => s.rest('PUT', `/domains/${domainId}/settings`, { body: { inbound_routing_enabled: on } });
const received = async (routeId: string) => (await sql(s, 'select subject from inbound_messages where inbound_id = ?', [routeId])).map((r: any) => r.subject);

let seq = 0;
async function domainWithRoute() {
  // Verified (routes need it), with the settings a new domain gets.
  const domain = await seedDomain(s);
  const name = domain.name;
  const forwardTo = `desk@${name}`;
  const route = await s.rest('POST', '/inbound', {
    body: { domain_id: domain.id, name: 'support', domain_enabled: true, inbound_domain: `in.${name}`, forwards: [{ type: 'email', value: forwardTo }] },
  });
  expect(route.status).toBe(201);
  return { domain, route: route.body.data, forwardTo };
}

it('is on for a new domain: its routes take mail', async () => {
  const fresh = await s.rest('POST', '/domains', { body: { name: `fresh${++seq}${Date.now()}.example.test` } });
  expect(fresh.status).toBe(201);
  expect(fresh.body.data.domain_settings.inbound_routing_enabled).toBe(true);
  const { domain, route, forwardTo } = await domainWithRoute();
  expect((await send(route.address, 'By address')).response).toMatch(/^250 /);
  expect((await send(`anyone@in.${domain.name}`, 'By domain')).response).toMatch(/^250 /);
  await sink.waitFor(forwardTo);
  expect((await received(route.id)).sort()).toEqual(['By address', 'By domain']);
});

it('off: 550 at RCPT TO for the route address and the inbound domain, nothing stored or forwarded; on again: routed', async () => {
  const { domain, route, forwardTo } = await domainWithRoute();
  expect((await setRouting(domain.id, false)).status).toBe(200);

  for (const to of [route.address, `anyone@in.${domain.name}`]) {
    const refused = await send(to, 'While off');
    expect(refused.responseCode).toBe(550);
    expect(refused.command).toBe('RCPT TO');
    expect(refused.response).toContain(`5.7.1 Inbound routing is turned off for ${domain.name}`);
  }
  expect(await received(route.id)).toEqual([]);
  // The route is kept as it was: still enabled, still listed under its domain.
  expect((await s.rest('GET', `/inbound/${route.id}`)).body.data).toMatchObject({ id: route.id, enabled: true, address: route.address });

  expect((await setRouting(domain.id, true)).status).toBe(200);
  expect((await send(route.address, 'Back on')).response).toMatch(/^250 /);
  const got = await sink.waitFor(forwardTo);
  expect(got.raw).toMatch(/^Subject: Back on/m);
  expect(await until(async () => ((await received(route.id)).length ? received(route.id) : null))).toEqual(['Back on']);
});

it('a route created while the domain has routing off is stored but takes no mail until it is turned on', async () => {
  const domain = await seedDomain(s);
  const name = domain.name;
  expect((await setRouting(domain.id, false)).status).toBe(200);
  const created = await s.rest('POST', '/inbound', { body: { domain_id: domain.id, name: 'late', domain_enabled: false, forwards: [{ type: 'email', value: `desk@${name}` }] } });
  expect(created.status).toBe(201);
  expect(created.body.data.enabled).toBe(true);
  expect((await send(created.body.data.address, 'Too early')).responseCode).toBe(550);
  expect((await setRouting(domain.id, true)).status).toBe(200);
  expect((await send(created.body.data.address, 'In time')).response).toMatch(/^250 /);
  expect(await received(created.body.data.id)).toEqual(['In time']);
});

it('another domain turning routing off does not touch this one', async () => {
  const a = await domainWithRoute();
  const b = await domainWithRoute();
  expect((await setRouting(b.domain.id, false)).status).toBe(200);
  expect((await send(a.route.address, 'Still routed')).response).toMatch(/^250 /);
  expect((await send(b.route.address, 'Refused')).responseCode).toBe(550);
});
