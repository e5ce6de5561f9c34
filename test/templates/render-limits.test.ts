import { seedDomain } from '../support/factories.js';
import { sampleOf, scrapeMetrics } from '../support/metrics.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { sql } from '../sending/helpers.js';
import { createTemplate } from './helpers.js';
import { worstInlineRenders } from './inline-worst.js';
import { slowestHealthDuring } from '../support/loop-watch.js';

/**
 * No send holds the event loop: renders that may be expensive run in the render pool, whose hard
 * limit ends a render liquidjs's own checks cannot (one filter over a long list), and inputs and
 * outputs are bounded so that filters cannot amplify them without limit. The server runs in this
 * process, so a render held on its event loop holds this test's `GET /health` too.
 */

/** Decodes the quoted-printable parts of a raw message well enough to look for text in it. */
const unqp = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16)));

let sink: SmtpSink;
let s: TestServer;
let from: string;
let seq = 0;
const rcpt = (tag: string) => `${tag}-${++seq}-${Date.now().toString(36)}@example.net`;

beforeAll(async () => {
  sink = await startSmtpSink();
  // The default render limits: TEMPLATE_RENDER_MS 500, TEMPLATE_MEMORY_LIMIT 20,000,000.
  s = await startTestServer({ env: { MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}` } });
  const domain = await seedDomain(s, { dkim: true });
  from = `shop@${domain.name}`;
}, 60_000);
afterAll(async () => {
  await s?.close();
  await sink?.close();
});

const send = (body: Record<string, unknown>) => s.rest('POST', '/email', { body: { from: { email: from }, subject: 'Limits', ...body } });
const messagesTo = async (to: string) => (await sql<{ n: number }>(s, 'select count(*)::int as n from emails where to_email = ?', [to]))[0].n;
const renders = async (thread: string) => sampleOf(await scrapeMetrics(s), `postbox_template_renders_total{thread="${thread}"}`) ?? 0;

/** One expression evaluated per item of a list: a single filter that runs for seconds whatever liquidjs checks between nodes. */
const SLOW_FILTER = `{% assign r = (1..20000) %}{{ r | where_exp: "x", "${Array(100).fill('x > 0').join(' and ')}" | size }}`;

describe('a render that would hold the event loop', () => {
  it('a sort over a quarter of a million strings is refused before rendering, and /health answers meanwhile', async () => {
    const to = rcpt('sort');
    const big = Array.from({ length: 250_000 }, (_, i) => `w${i}`);
    const body = { to: [{ email: to }], html: '{{ big | sort_natural | size }}', personalization: [{ email: to, data: { big } }] };
    const { result: res, slowestMs } = await slowestHealthDuring(s.url, send(body));
    expect(res.status).toBe(422);
    // No list of a JSON body may pass 20,000 items (src/lib/json-shape.ts): refused before it is parsed.
    expect(res.body.errors).toEqual({ 'personalization.0.data.big': ['The personalization.0.data.big may not have more than 20000 items.'] });
    // The render held the loop for seconds; parsing and refusing the body takes a fraction of that.
    expect(slowestMs).toBeLessThan(1000);
    expect(await messagesTo(to)).toBe(0);
  });

  it('a single filter that runs long is stopped by the pool with a 422 naming the field; the next send renders', async () => {
    const to = rcpt('stopped');
    const { result: res, slowestMs } = await slowestHealthDuring(s.url, send({ to: [{ email: to }], html: SLOW_FILTER }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ html: ['The html could not be rendered: it took longer than 500 ms and was stopped.'] });
    expect(slowestMs).toBeLessThan(1000);
    expect(await messagesTo(to)).toBe(0);

    // Through GraphQL, the same answer.
    const gql = await s.gql(
      'mutation($from: EmailAddressInput, $to: [EmailAddressInput!]!, $html: String) { send_email(from: $from, to: $to, subject: "x", html: $html) { message_id } }',
      { from: { email: from }, to: [{ email: rcpt('stopped-gql') }], html: SLOW_FILTER },
    );
    expect(gql.status).toBe(422);
    expect(gql.body.errors[0].extensions.errors.html[0]).toMatch(/took longer than 500 ms and was stopped/);

    // The pool starts a thread again: the next loop renders and is delivered.
    const next = rcpt('next');
    const ok = await send({ to: [{ email: next }], html: '<ul>{% for l in lines %}<li>{{ l }}</li>{% endfor %}</ul>', personalization: [{ email: next, data: { lines: ['a', 'b'] } }] });
    expect(ok.status).toBe(202);
    expect(unqp((await sink.waitFor(next)).raw)).toContain('<ul><li>a</li><li>b</li></ul>');
  });

  it('at delivery, a template edited to run long is stopped and the email goes with the {{var}} replacement', async () => {
    const held = await seedDomain(s, { dkim: true });
    await s.rest('PUT', `/domains/${held.id}/settings`, { body: { send_paused: true } });
    const t = await createTemplate(s, { html: '<p>Hi {{ name }}</p>', text: 'Hi {{ name }}', subject: 'Held', domain_id: held.id });
    const to = rcpt('held');
    const res = await s.rest('POST', '/email', { body: { from: { email: `a@${held.name}` }, to: [{ email: to }], template_id: t.id, personalization: [{ email: to, data: { name: 'Max' } }] } });
    expect(res.status).toBe(202);
    expect((await s.rest('PUT', `/templates/${t.id}`, { body: { html: `<p>Hi {{ name }}</p>${SLOW_FILTER}` } })).status).toBe(200);
    const { result: got, slowestMs } = await slowestHealthDuring(
      s.url,
      (async () => {
        await s.rest('PUT', `/domains/${held.id}/settings`, { body: { send_paused: false } });
        return sink.waitFor(to);
      })(),
    );
    const body = unqp(got.raw);
    expect(body).toContain('<p>Hi Max</p>{% assign r = (1..20000) %}');
    expect(slowestMs).toBeLessThan(1000);
  });
});

describe('filters and tags that amplify their input', () => {
  it('capture in a loop is counted against the memory limit, and a capture is capped like the output', async () => {
    // A thousand captures of 30,000 characters: 30,000,000 characters written, over 20,000,000.
    const to = rcpt('capture');
    const res = await send({
      to: [{ email: to }],
      text: '{% for i in (1..1000) %}{% capture s %}{{ block }}{% endcapture %}{% endfor %}{{ s | size }}',
      personalization: [{ email: to, data: { block: 'x'.repeat(30_000) } }],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.text).toEqual([`The text could not be rendered for ${to} on line 1: memory alloc limit exceeded.`]);
    expect(await messagesTo(to)).toBe(0);
    // Doubling the captured text 24 times: 16 million characters in one capture, over the output's cap.
    const doubled = await send({ to: [{ email: rcpt('double') }], text: '{% for i in (1..24) %}{% capture s %}{{ s }}{{ s }}x{% endcapture %}{% endfor %}{{ s | size }}' });
    expect(doubled.status).toBe(422);
    expect(doubled.body.errors.text[0]).toMatch(/the output is larger than 4194304 characters/);
  });

  it('append in a loop and split of a long string in a loop are counted too', async () => {
    // Split counts the length of what it splits: 30,000 characters a time, over the limit after
    // about 670 rounds. Few parts each, so the rounds stay cheap and the memory limit, not the
    // time limit, is what stops the render however busy the machine is.
    const long = `${'x'.repeat(2_999)},`.repeat(10);
    const cases: [string, Record<string, unknown>][] = [
      ['{% for i in (1..20000) %}{% assign s = s | append: "0123456789" %}{% endfor %}{{ s | size }}', {}],
      ['{% for i in (1..2000) %}{% assign parts = long | split: "," %}{% endfor %}{{ parts | size }}', { long }],
    ];
    for (const [html, data] of cases) {
      const to = rcpt('amplify');
      const res = await send({ to: [{ email: to }], html, personalization: [{ email: to, data }] });
      expect(res.status).toBe(422);
      expect(res.body.errors.html[0]).toMatch(/memory alloc limit exceeded/);
    }
  });

  it('a template with more Liquid tags or markup than the parser handles quickly is refused when saved and when sent', async () => {
    const many = '{{ a }}'.repeat(2001);
    const saved = await s.rest('POST', '/templates', { body: { html: many, text: 'x' } });
    expect(saved.status).toBe(422);
    expect(saved.body.errors.html).toEqual(['The html has a template error: it has more than 2000 Liquid tags.']);
    const lines = `{% liquid\n${'assign a = 1\n'.repeat(2001)}%}`;
    expect((await s.rest('POST', '/templates', { body: { html: lines, text: 'x' } })).body.errors.html[0]).toMatch(/more than 2000 Liquid tags/);
    const markup = `{{ a${' | upcase'.repeat(8000)} }}`;
    expect((await s.rest('POST', '/templates', { body: { html: markup, text: 'x' } })).body.errors.html[0]).toMatch(/more than 65536 characters of Liquid markup/);
    const sent = await send({ to: [{ email: rcpt('tags') }], html: many });
    expect(sent.status).toBe(422);
    expect(sent.body.errors.html[0]).toMatch(/more than 2000 Liquid tags/);
  });
});

describe('what stays on the event loop', () => {
  // How long these hold the loop is bench:sweep's (bench/worst-inputs.ts), not a timed test's.
  it('the worst renders kept on the event loop stay there; one step past their bounds goes to the pool', async () => {
    const cases = worstInlineRenders();
    for (const { html, data } of cases) {
      expect(html.length).toBeLessThan(256 * 1024);
      expect(JSON.stringify(data).length).toBeLessThan(16 * 1024);
    }
    const [inline, pooled] = [await renders('event_loop'), await renders('pool')];
    for (const { html, data } of cases) {
      const to = rcpt('cheap');
      expect((await send({ to: [{ email: to }], html, personalization: [{ email: to, data }] })).status).toBe(202);
      await sink.waitFor(to);
    }
    // Each send rendered on the event loop twice: when accepted, and when delivered.
    expect(await renders('event_loop')).toBe(inline + 4);
    expect(await renders('pool')).toBe(pooled);

    // One output more, or one filter, and the render is the pool's, when accepted and when delivered.
    const to = rcpt('pooled');
    const filtered = rcpt('filter');
    expect((await send({ to: [{ email: to }], html: `${cases[0].html}{{ k0 }}`, personalization: [{ email: to, data: cases[0].data }] })).status).toBe(202);
    expect((await send({ to: [{ email: filtered }], html: '<p>{{ name | upcase }}</p>' })).status).toBe(202);
    await sink.waitFor(to);
    await sink.waitFor(filtered);
    expect(await renders('pool')).toBe(pooled + 4);
    expect(await renders('event_loop')).toBe(inline + 4);
  });
});

describe('a render pool too busy to take more', () => {
  let busy: TestServer;
  beforeAll(async () => {
    busy = await startTestServer({ env: { RENDER_POOL_THREADS: '1', RENDER_POOL_QUEUE: '1' } });
  }, 60_000);
  afterAll(() => busy?.close());

  it('answers 503 with retry-after at once rather than queueing without bound; the renders it took still end', async () => {
    const domain = await seedDomain(busy, { dkim: true });
    const post = () =>
      busy.rest('POST', '/email', { body: { from: { email: `a@${domain.name}` }, to: [{ email: rcpt('busy') }], subject: 'x', html: SLOW_FILTER } });
    // One renders, one waits for the thread, the third finds the queue full.
    const answers = await Promise.all([post(), post(), post()]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([422, 422, 503]);
    const refused = answers.find((a) => a.status === 503)!;
    expect(refused.body).toEqual({ message: 'The service is busy rendering templates. Please try again shortly.' });
    expect(refused.headers.get('retry-after')).toBe('5');
  });
});
