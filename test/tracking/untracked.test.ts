import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { untrack } from '../../src/modules/tracking/untrack.js';
import { sendAndCapture, sql, trackingLinks } from './helpers.js';

/**
 * Reading an email back (the email log on both surfaces, the console's email page) shows its
 * bodies as the sender wrote them: no open pixel of ours and no click link of ours, so an admin
 * reading an email neither opens it nor clicks in it for the sender's rates and webhooks. The
 * copy the capture transport kept (`content`) is the mail as sent.
 */
let s: TestServer;
let domain: { id: string; name: string };

const HTML = `<html><body><p>Hello. <a href="https://shop.example/offer?a=1&amp;b=2">Offer</a>
<a href='http://plain.example/page'>Plain</a></p></body></html>`;
const TEXT = 'Hello. Visit https://shop.example/text-link. Thanks';
const EMAIL = `query($id: ID!) { email(email_id: $id) { html text content { html } } }`;

beforeAll(async () => {
  s = await startTestServer();
  domain = await seedDomain(s, { dkim: true });
  const res = await s.rest('PUT', `/domains/${domain.id}/settings`, { body: { track_opens: true, track_clicks: true } });
  expect(res.status).toBe(200);
}, 60_000);
afterAll(() => s?.close());

it('shows the email without its pixel and with its links pointing at their targets, and records nothing', async () => {
  const sent = await sendAndCapture(s, { from: { email: `news@${domain.name}` }, to: [{ email: 'reader@example.net' }], subject: 'Tracked', html: HTML, text: TEXT });
  // As sent: instrumented.
  expect(trackingLinks(sent.html!, 'o')).toHaveLength(1);
  expect(trackingLinks(sent.html!, 'c')).toHaveLength(2);

  const gql = await s.gql(EMAIL, { id: sent.emailId });
  const shown = gql.body.data.email;
  for (const body of [shown.html, shown.text]) {
    expect(trackingLinks(body, 'o')).toEqual([]);
    expect(trackingLinks(body, 'c')).toEqual([]);
  }
  expect(shown.html).toContain('href="https://shop.example/offer?a=1&amp;b=2"');
  expect(shown.html).toContain('http://plain.example/page');
  expect(shown.html).toMatch(/<img src="data:image\/gif;base64,[^"]+" width="1" height="1"/);
  expect(shown.text).toContain('https://shop.example/text-link');
  // The captured copy is the mail as it went out.
  expect(trackingLinks(shown.content.html, 'o')).toHaveLength(1);

  const rest = await s.rest('GET', `/email/${sent.emailId}`);
  expect(trackingLinks(rest.body.data.html, 'o')).toEqual([]);
  expect(trackingLinks(rest.body.data.html, 'c')).toEqual([]);

  const [row] = await sql<{ opened_at: string | null; clicked_at: string | null }>(s, 'select opened_at, clicked_at from emails where id = ?', [sent.emailId]);
  expect(row).toEqual({ opened_at: null, clicked_at: null });
});

it('leaves links it did not sign as they are, and reads a hostile body in time linear in its size', () => {
  const secret = s.app.services.config.APP_SECRET;
  const forged = 'https://evil.example/t/c/eyJlIjoieCIsInUiOiJodHRwczovL2V2aWwifQ.AAAA';
  expect(untrack(secret, `<a href="${forged}">x</a>`, 'html')).toBe(`<a href="${forged}">x</a>`);
  // Two megabytes of markers with nothing around them, and of URL starts before one marker: each
  // marker is looked at within fixed reaches, so these end within the test's timeout (a scan
  // back to every URL start would take minutes) and change nothing.
  for (const body of ['/t/c/'.repeat(400_000), `${'http://'.repeat(300_000)}/t/o/x.y`]) expect(untrack(secret, body, 'html')).toBe(body);
});
