import http from 'node:http';
import { seedDomain } from '../support/factories.js';
import { createAccount, startTestServer, type TestServer } from '../support/server.js';
import { scrapeMetrics } from '../support/metrics.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { CHROME, interactions, parseMime, sql, trackingLinks } from './helpers.js';

/**
 * Custom tracking domains, end to end: the DNS check (a real DNS server) verifies the tracking
 * CNAME, delivered mail (a real SMTP server) carries links on `<subdomain>.<domain>`, and the api
 * answers them by their Host header, only for that domain's own mail.
 */
let s: TestServer;
let sink: SmtpSink;
let a: { id: string; name: string };
let other: { token: string; domain: { id: string; name: string } };
let n = 0;

/** A counter's value in GET /metrics (0 when it has no sample yet). */
async function metric(line: string): Promise<number> {
  const text = await scrapeMetrics(s);
  const hit = text.split('\n').find((l) => l.startsWith(`${line} `));
  return hit ? Number(hit.split(' ')[1]) : 0;
}

/** A request to the api as if it arrived for `host` (what a CNAME to TRACKING_TARGET delivers). */
function onHost(host: string, url: string, method = 'GET'): Promise<{ status: number; location?: string; body: string }> {
  const u = new URL(url);
  const api = new URL(s.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: api.hostname, port: api.port, path: u.pathname, method, headers: { host, 'user-agent': CHROME } },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function settings(domainId: string, body: Record<string, unknown>, token?: string) {
  const res = await s.rest('PUT', `/domains/${domainId}/settings`, { body, token });
  expect(res.status).toBe(200);
  return res.body.data;
}

/** Publishes every record GET /dns-records lists and runs the DNS check. */
async function verifyAll(domainId: string) {
  const r = (await s.rest('GET', `/domains/${domainId}/dns-records`)).body.data;
  s.dns.add(r.spf.hostname, { type: 'TXT', data: r.spf.value });
  s.dns.add(r.dkim.hostname, { type: 'TXT', data: r.dkim.value });
  s.dns.add(r.return_path.hostname, { type: 'CNAME', domain: r.return_path.value });
  s.dns.add(r.custom_tracking.hostname, { type: 'CNAME', domain: r.custom_tracking.value });
  const res = await s.rest('GET', `/domains/${domainId}/verify`);
  expect(res.status).toBe(200);
  return r;
}

async function deliver(domain: { name: string }, token?: string) {
  n += 1;
  const to = `reader${n}-${Date.now()}@example.net`;
  const res = await s.rest('POST', '/email', {
    token,
    body: {
      from: { email: `news@${domain.name}` },
      to: [{ email: to }],
      subject: 'Tracked',
      html: '<html><body><p><a href="https://shop.example/offer">Offer</a></p></body></html>',
      text: 'Visit https://shop.example/text',
    },
  });
  expect(res.status).toBe(202);
  const [email] = await sql<{ id: string }>(s, 'select id from emails where message_id = ?', [res.headers.get('x-message-id')]);
  const got = await sink.waitFor(to);
  return { emailId: email.id, from: got.from, ...parseMime(got.raw) };
}

beforeAll(async () => {
  sink = await startSmtpSink();
  s = await startTestServer({ env: { MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}` } });
  a = await seedDomain(s, { dkim: true });
  await settings(a.id, { track_opens: true, track_clicks: true, track_unsubscribe: true, custom_tracking_enabled: true });
  const acc = await createAccount(s, 'Tracking neighbour');
  other = { token: acc.token, domain: await seedDomain(s, { accountId: acc.id, dkim: true }) };
  await settings(other.domain.id, { track_opens: true, track_clicks: true, track_unsubscribe: true }, other.token);
}, 60_000);
afterAll(async () => {
  await s?.close();
  await sink?.close();
});

describe('custom tracking domains', () => {
  it('uses PUBLIC_URL while the tracking CNAME is not verified', async () => {
    const mail = await deliver(a);
    const links = [...trackingLinks(mail.html!, 'o'), ...trackingLinks(mail.html!, 'c'), ...trackingLinks(mail.html!, 'u')];
    expect(links).toHaveLength(3);
    for (const l of links) expect(l.startsWith(`${s.app.services.config.PUBLIC_URL}/t/`)).toBe(true);
  });

  it('once verified, every tracking link of the domain is on <subdomain>.<domain>, with PUBLIC_URL\'s scheme', async () => {
    const records = await verifyAll(a.id);
    // The record to publish names the CNAME target: TRACKING_TARGET.
    expect(records.custom_tracking).toMatchObject({ hostname: `links.${a.name}`, type: 'CNAME', value: s.app.services.config.TRACKING_TARGET });
    const d = (await s.rest('GET', `/domains/${a.id}`)).body.data;
    expect(d).toMatchObject({ is_cname_verified: true, is_cname_active: true });

    const mail = await deliver(a);
    const host = `http://links.${a.name}/t/`;
    expect(trackingLinks(mail.html!, 'o').map((l) => l.startsWith(host))).toEqual([true]);
    expect(trackingLinks(mail.html!, 'c').map((l) => l.startsWith(host))).toEqual([true]);
    expect(trackingLinks(mail.text!, 'c').map((l) => l.startsWith(host))).toEqual([true]);
    const [unsub] = trackingLinks(mail.html!, 'u');
    expect(unsub.startsWith(host)).toBe(true);
    expect(mail.headers).toContain(`List-Unsubscribe: <${unsub}>`);
    // The envelope sender is the domain's return-path host (VERP), as before.
    expect(mail.from).toBe(`bounces+${mail.emailId}@mta.${a.name}`);
  });

  it('the api counts opens and clicks that arrive for the tracking host', async () => {
    const mail = await deliver(a);
    const trackHost = `links.${a.name}`;
    const open = await onHost(trackHost, trackingLinks(mail.html!, 'o')[0]);
    expect(open.status).toBe(200);
    const click = await onHost(trackHost.toUpperCase(), trackingLinks(mail.html!, 'c')[0]);
    expect(click.status).toBe(302);
    expect(click.location).toBe('https://shop.example/offer');
    const unsub = await onHost(trackHost, trackingLinks(mail.html!, 'u')[0]);
    expect(unsub.status).toBe(200);
    expect(unsub.body).toContain('Stop sending these emails');
    expect((await interactions(s, mail.emailId)).map((x) => x.type).sort()).toEqual(
      ['clicked', 'clicked_unique', 'opened', 'opened_unique'],
    );
    // PUBLIC_URL's host still honours the same links.
    const path = new URL(trackingLinks(mail.html!, 'o')[0]).pathname;
    expect((await onHost(new URL(s.app.services.config.PUBLIC_URL).host, `http://x${path}`)).status).toBe(200);
  });

  it('another account\'s token is 404 on this tracking host, and this domain\'s on the other\'s', async () => {
    const theirs = await deliver(other.domain, other.token);
    // Not verified: their links are on PUBLIC_URL.
    const [theirOpen] = trackingLinks(theirs.html!, 'o');
    const [theirClick] = trackingLinks(theirs.html!, 'c');
    const [theirUnsub] = trackingLinks(theirs.html!, 'u');
    expect(theirOpen.startsWith(s.app.services.config.PUBLIC_URL)).toBe(true);
    const mine = `links.${a.name}`;
    const refusedClicks = await metric('postbox_tracking_foreign_host_total{kind="click"}');
    expect((await onHost(mine, theirOpen)).status).toBe(404);
    expect((await onHost(mine, theirClick)).status).toBe(404);
    expect((await onHost(mine, theirUnsub)).status).toBe(404);
    expect((await onHost(mine, theirUnsub, 'POST')).status).toBe(404);
    expect(await metric('postbox_tracking_foreign_host_total{kind="click"}')).toBe(refusedClicks + 1);
    expect(await interactions(s, theirs.emailId)).toEqual([]);

    const ours = await deliver(a);
    // The other domain's tracking host (the default subdomain, even unverified) refuses ours.
    expect((await onHost(`links.${other.domain.name}`, trackingLinks(ours.html!, 'c')[0])).status).toBe(404);
    expect(await interactions(s, ours.emailId)).toEqual([]);
    // Their link still works where it points.
    expect((await onHost(new URL(s.app.services.config.PUBLIC_URL).host, theirClick)).status).toBe(302);
  });

  it('disabled again: links are on PUBLIC_URL', async () => {
    await settings(a.id, { custom_tracking_enabled: false });
    const mail = await deliver(a);
    expect(trackingLinks(mail.html!, 'o')[0].startsWith(`${s.app.services.config.PUBLIC_URL}/t/o/`)).toBe(true);
    await settings(a.id, { custom_tracking_enabled: true });
  });
});
