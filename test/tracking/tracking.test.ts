import { seedDomain } from '../support/factories.js';
import { tapEvents, type EventTap } from '../support/events.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { signToken } from '../../src/lib/secrets.js';
import {
  CHROME, GMAIL_PROXY, IPHONE, activities, hit, interactions, sendAndCapture, sql, trackingLinks, type Sent,
} from './helpers.js';

const NOT_FOUND = { message: 'Resource not found.' };
let s: TestServer;
let receiver: Receiver;
let domain: { id: string; name: string };
/** The domain's open events, as a webhook of it gets them. */
let opens: EventTap;
let n = 0;

const HTML = `<html><body>
<p>Hello. <a href="https://shop.example/offer?a=1&amp;b=2">Offer</a>
<A HREF='http://plain.example/page'>Plain</A>
<a href="mailto:help@shop.example">Mail us</a> <a href="#top">Top</a>
<a href="https://shop.example/offer?a=1&amp;b=2">Offer again</a></p>
</body></html>`;
const TEXT = 'Hello. Visit https://shop.example/text-link. Thanks';

function send(extra: Record<string, unknown> = {}): Promise<Sent> {
  n += 1;
  return sendAndCapture(s, {
    from: { email: `news@${domain.name}` },
    to: [{ email: `reader${n}-${Date.now()}@example.net` }],
    subject: 'Tracked',
    html: HTML,
    text: TEXT,
    ...extra,
  });
}

async function settings(body: Record<string, unknown>) {
  const res = await s.rest('PUT', `/domains/${domain.id}/settings`, { body });
  expect(res.status).toBe(200);
}

const emailRow = async (id: string) =>
  (await sql<{ opened_at: string | null; clicked_at: string | null; unsubscribed_at: string | null; recipient_id: string }>(
    s,
    'select opened_at, clicked_at, unsubscribed_at, recipient_id from emails where id = ?',
    [id],
  ))[0];

/** Activities recorded by one hit share a timestamp, so their order is not defined: compare as sorted. */
const types = (rows: { type: string }[]) => rows.map((a) => a.type).sort();

beforeAll(async () => {
  s = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startReceiver();
  domain = await seedDomain(s, { dkim: true });
  await settings({ track_opens: true, track_clicks: true, track_unsubscribe: true });
  opens = await tapEvents(s, receiver, { domainId: domain.id }, { types: ['activity.opened', 'activity.opened_unique'] });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await receiver?.close();
});

describe('what is sent', () => {
  it('carries a pixel, signed click links, the unsubscribe footer and List-Unsubscribe', async () => {
    const mail = await send();
    expect(trackingLinks(mail.html!, 'o')).toHaveLength(1);
    expect(mail.html!).toMatch(/<img src="[^"]+\/t\/o\/[^"]+" width="1" height="1"[^>]*>\s*<\/body>/);
    expect(trackingLinks(mail.html!, 'c')).toHaveLength(3);
    expect(mail.html).not.toContain('shop.example/offer');
    expect(mail.html).toContain('href="mailto:help@shop.example"');
    expect(mail.html).toContain('href="#top"');
    const [unsub] = trackingLinks(mail.html!, 'u');
    expect(unsub.startsWith(s.app.services.config.PUBLIC_URL)).toBe(true);
    expect(trackingLinks(mail.text!, 'u')).toEqual([unsub]);
    expect(trackingLinks(mail.text!, 'c')).toHaveLength(1);
    expect(mail.headers).toMatch(new RegExp(`List-Unsubscribe: <${unsub.replace(/[.?]/g, '\\$&')}>`, 'i'));
  });

  it('fills a {{unsubscribe}} the sender wrote, beside personalization', async () => {
    const mail = await send({
      html: '<html><body><p>Hi {{name}}</p><a href="{{ unsubscribe }}">Leave</a></body></html>',
      text: 'Hi {{name}}, leave: {{unsubscribe}}',
      personalization: [{ email: `reader${n + 1}-x@example.net`, data: { name: 'nobody' } }],
    });
    const [unsub] = trackingLinks(mail.html!, 'u');
    expect(unsub).toBeDefined();
    expect(mail.html).not.toContain('href=""');
    expect(mail.text).toContain(unsub);
    expect(mail.text).not.toContain('{{');
  });

  it('carries none of it when the domain tracks nothing', async () => {
    await settings({ track_opens: false, track_clicks: false, track_unsubscribe: false });
    try {
      const mail = await send();
      expect(mail.html).toContain(`href="https://shop.example/offer?a=1&amp;b=2"`);
      expect(mail.text).toContain('https://shop.example/text-link');
      expect(mail.raw).not.toMatch(/\/t\/[ocu]\//);
    } finally {
      await settings({ track_opens: true, track_clicks: true, track_unsubscribe: true });
    }
  });
});

describe('opens', () => {
  it('answers a no-store 1x1 gif and records opened, then opened_unique once', async () => {
    const mail = await send();
    const [pixel] = trackingLinks(mail.html!, 'o');
    const res = await hit(s, pixel);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/gif');
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    const gif = Buffer.from(await res.arrayBuffer());
    expect(gif.subarray(0, 6).toString('latin1')).toBe('GIF89a');
    expect([gif.readUInt16LE(6), gif.readUInt16LE(8)]).toEqual([1, 1]);

    const first = await interactions(s, mail.emailId);
    expect(types(first)).toEqual(['opened', 'opened_unique']);
    expect(first[0].data).toEqual(first[1].data);
    expect(first[0].data).toEqual({
      ip: '127.0.0.1',
      user_agent: CHROME,
      ua_name: 'Chrome',
      ua_os: 'Windows',
      ua_type: 'desktop',
      country: 'unknown',
    });
    expect(first[0].domain_id).toBe(domain.id);
    const opened = (await emailRow(mail.emailId)).opened_at;
    expect(opened).not.toBeNull();

    expect((await hit(s, pixel, { ua: IPHONE })).status).toBe(200);
    expect((await hit(s, pixel, { ua: GMAIL_PROXY })).status).toBe(200);
    const all = await interactions(s, mail.emailId);
    expect(types(all)).toEqual(['opened', 'opened', 'opened', 'opened_unique']);
    expect(all[2].data).toMatchObject({ ua_name: 'Mobile Safari', ua_os: 'iOS', ua_type: 'mobile' });
    expect(all[3].data).toMatchObject({ ua_name: 'Gmail', ua_type: 'webmail' });
    expect((await emailRow(mail.emailId)).opened_at).toEqual(opened);
  });

  it('records one opened_unique when opens arrive at the same time', async () => {
    const mail = await send();
    const [pixel] = trackingLinks(mail.html!, 'o');
    const answers = await Promise.all(Array.from({ length: 6 }, () => hit(s, pixel)));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(types(await interactions(s, mail.emailId))).toEqual([...Array(6).fill('opened'), 'opened_unique']);
    // The webhook events are written with the activity: as many, and one first open.
    const events = (await opens.settle()).filter((e) => e.data.email_id === mail.emailId);
    expect(types(events)).toEqual([...Array(6).fill('activity.opened'), 'activity.opened_unique']);
  });

  it('serves the pixel for a bad token and records nothing', async () => {
    const mail = await send();
    const [pixel] = trackingLinks(mail.html!, 'o');
    for (const bad of [`${pixel}x`, pixel.replace(/\/t\/o\/.*/, '/t/o/garbage'), pixel.replace(/\/t\/o\/.*/, '/t/o/')]) {
      const res = await hit(s, bad);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/gif');
    }
    expect(await interactions(s, mail.emailId)).toEqual([]);
    expect((await emailRow(mail.emailId)).opened_at).toBeNull();
  });

  it('does not count a HEAD request', async () => {
    const mail = await send();
    const [pixel] = trackingLinks(mail.html!, 'o');
    expect((await hit(s, pixel, { method: 'HEAD' })).status).toBe(200);
    expect(await interactions(s, mail.emailId)).toEqual([]);
  });
});

describe('clicks', () => {
  it('redirects to the exact signed URL and records the click, and the open it implies', async () => {
    const mail = await send();
    const [offer, plain, again] = trackingLinks(mail.html!, 'c');
    const res = await hit(s, offer, { ua: IPHONE });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://shop.example/offer?a=1&b=2');
    expect(res.headers.get('cache-control')).toBe('no-store');

    const first = await interactions(s, mail.emailId);
    expect(types(first)).toEqual(['clicked', 'clicked_unique', 'opened', 'opened_unique']);
    const clicked = first.find((a) => a.type === 'clicked')!;
    expect(first.find((a) => a.type === 'clicked_unique')!.data).toEqual(clicked.data);
    expect(clicked.data).toEqual({
      ip: '127.0.0.1',
      user_agent: IPHONE,
      ua_name: 'Mobile Safari',
      ua_os: 'iOS',
      ua_type: 'mobile',
      country: 'unknown',
      url: 'https://shop.example/offer?a=1&b=2',
    });
    expect(first.find((a) => a.type === 'opened_unique')!.data.url).toBeUndefined();
    const row = await emailRow(mail.emailId);
    expect(row.opened_at).not.toBeNull();
    expect(row.clicked_at).not.toBeNull();

    expect((await hit(s, plain)).headers.get('location')).toBe('http://plain.example/page');
    expect((await hit(s, again)).headers.get('location')).toBe('https://shop.example/offer?a=1&b=2');
    const [text] = trackingLinks(mail.text!, 'c');
    expect((await hit(s, text)).headers.get('location')).toBe('https://shop.example/text-link');
    expect(types(await interactions(s, mail.emailId))).toEqual([
      'clicked', 'clicked', 'clicked', 'clicked', 'clicked_unique', 'opened', 'opened_unique',
    ]);
  });

  it('does not add an open when the email was opened already', async () => {
    const mail = await send();
    await hit(s, trackingLinks(mail.html!, 'o')[0]);
    await hit(s, trackingLinks(mail.html!, 'c')[0]);
    expect(types(await interactions(s, mail.emailId))).toEqual(['clicked', 'clicked_unique', 'opened', 'opened_unique']);
  });

  it('answers 404 to a tampered or foreign token and records nothing', async () => {
    const mail = await send();
    const [click] = trackingLinks(mail.html!, 'c');
    const [pixel] = trackingLinks(mail.html!, 'o');
    const base = click.slice(0, click.indexOf('/t/c/'));
    const [payload, sig] = click.slice(click.indexOf('/t/c/') + 5).split('.');
    // The same signature over another target, as an open redirect attempt would need.
    const evil = Buffer.from(JSON.stringify({ e: mail.emailId, u: 'https://evil.example/' })).toString('base64url');
    const forged = [
      `${base}/t/c/${evil}.${sig}`,
      // Another character where the signature's last full sextet is (its final one carries bits a decoder may drop).
      `${base}/t/c/${payload}.${sig.slice(0, -2)}${sig.at(-2) === 'A' ? 'B' : 'A'}${sig.at(-1)}`,
      `${base}/t/c/${payload}`,
      `${base}/t/c/${pixel.slice(pixel.indexOf('/t/o/') + 5)}`,
      `${base}/t/c/${signToken('another-secret-0123456789abcdef0123456789', 'tracking:click', { e: mail.emailId, u: 'https://evil.example/' })}`,
    ];
    for (const url of forged) {
      const res = await hit(s, url);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual(NOT_FOUND);
      expect(res.headers.get('location')).toBeNull();
    }
    expect(await interactions(s, mail.emailId)).toEqual([]);
  });
});

describe('unsubscribe', () => {
  it('asks for confirmation on GET, unsubscribes on POST, once', async () => {
    const mail = await send();
    const [unsub] = trackingLinks(mail.html!, 'u');
    const path = new URL(unsub).pathname;

    const page = await hit(s, unsub);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain(`<form method="post" action="${path}">`);
    expect(html).toContain('<button type="submit">Unsubscribe</button>');
    expect(await interactions(s, mail.emailId)).toEqual([]);
    expect((await emailRow(mail.emailId)).unsubscribed_at).toBeNull();

    // RFC 8058 one-click, as a mailbox provider sends it.
    const done = await hit(s, unsub, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(done.status).toBe(200);
    expect(done.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await done.text()).toContain('will no longer receive these emails');

    const row = await emailRow(mail.emailId);
    expect(row.unsubscribed_at).not.toBeNull();
    const acts = await interactions(s, mail.emailId);
    expect(acts.map((a) => a.type)).toEqual(['unsubscribed']);
    expect(acts[0].data).toMatchObject({ ua_name: 'Chrome', ua_type: 'desktop', country: 'unknown', ip: '127.0.0.1' });

    const listed = await s.rest('GET', `/suppressions/unsubscribes?domain_id=${domain.id}`);
    expect(listed.status).toBe(200);
    const entries = listed.body.data.filter((e: { recipient: { id: string } }) => e.recipient.id === row.recipient_id);
    expect(entries).toHaveLength(1);

    // Again, from a plain form post and then with no body at all: nothing new.
    for (const init of [{ headers: { 'content-type': 'application/json' }, body: 'not json' }, {}]) {
      const again = await hit(s, unsub, { method: 'POST', ...init });
      expect(again.status).toBe(200);
      expect(await again.text()).toContain('already unsubscribed');
    }
    expect((await hit(s, unsub)).status).toBe(200);
    expect((await interactions(s, mail.emailId)).map((a) => a.type)).toEqual(['unsubscribed']);
    const rows = await sql(s, `select * from suppressions where list = 'unsubscribes' and recipient_id = ?`, [row.recipient_id]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ domain_id: domain.id, account_id: acts[0].account_id });
  });

  it('answers 404 to a bad token, and an open token is no unsubscribe token', async () => {
    const mail = await send();
    const [pixel] = trackingLinks(mail.html!, 'o');
    const wrong = pixel.replace('/t/o/', '/t/u/');
    for (const method of ['GET', 'POST']) {
      const res = await hit(s, wrong, { method });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    }
    expect(await interactions(s, mail.emailId)).toEqual([]);
  });
});

describe('emails that cannot be read', () => {
  it('records nothing for a cancelled or suppressed email, but still serves pixel and redirect', async () => {
    for (const status of ['cancelled', 'suppressed']) {
      const mail = await send();
      await sql(s, 'update emails set status = ? where id = ?', [status, mail.emailId]);
      const before = (await activities(s, mail.emailId)).length;
      expect((await hit(s, trackingLinks(mail.html!, 'o')[0])).status).toBe(200);
      expect((await hit(s, trackingLinks(mail.html!, 'c')[0])).status).toBe(302);
      const unsub = trackingLinks(mail.html!, 'u')[0];
      expect((await hit(s, unsub)).status).toBe(404);
      expect((await hit(s, unsub, { method: 'POST' })).status).toBe(404);
      expect(await activities(s, mail.emailId)).toHaveLength(before);
      const row = await emailRow(mail.emailId);
      expect([row.opened_at, row.clicked_at, row.unsubscribed_at]).toEqual([null, null, null]);
    }
  });

  it('serves the pixel but answers 404 to a click for an email that no longer exists', async () => {
    const mail = await send();
    await sql(s, 'delete from emails where id = ?', [mail.emailId]);
    expect((await hit(s, trackingLinks(mail.html!, 'o')[0])).status).toBe(200);
    const click = await hit(s, trackingLinks(mail.html!, 'c')[0]);
    expect(click.status).toBe(404);
    expect(await click.json()).toEqual(NOT_FOUND);
    expect((await hit(s, trackingLinks(mail.html!, 'u')[0], { method: 'POST' })).status).toBe(404);
  });
});
