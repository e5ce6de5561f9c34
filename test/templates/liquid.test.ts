import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { scrapeMetrics } from '../support/metrics.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { sql, until } from '../sending/helpers.js';
import { createTemplate } from './helpers.js';

/** Decodes the quoted-printable parts of a raw message well enough to look for text in it. */
const unqp = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16)));

let sink: SmtpSink;
let s: TestServer;
let from: string;
let seq = 0;
const rcpt = (tag: string) => `${tag}-${++seq}-${Date.now().toString(36)}@example.net`;

beforeAll(async () => {
  sink = await startSmtpSink();
  s = await startTestServer({
    env: {
      MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`,
      // Small limits, so that a test can hit each one cheaply.
      TEMPLATE_MAX_STEPS: '200',
      TEMPLATE_OUTPUT_MAX_CHARS: '20000',
      TEMPLATE_MEMORY_LIMIT: '100000',
    },
  });
  const domain = await seedDomain(s, { dkim: true });
  from = `shop@${domain.name}`;
}, 60_000);
afterAll(async () => {
  await s?.close();
  await sink?.close();
});

const send = (body: Record<string, unknown>) => s.rest('POST', '/email', { body: { from: { email: from, name: 'Shop' }, ...body } });
const messagesTo = async (to: string) =>
  (await sql<{ n: number }>(s, 'select count(*)::int as n from emails where to_email = ?', [to]))[0].n;

const ORDER_HTML = [
  '<h1>Order {{ order.number }}</h1>',
  '<table>{% for line in lines %}<tr><td>{{ forloop.index }}</td><td>{{ line.name | upcase }}</td><td>{{ line.qty }} x {{ line.price | times: 1.0 | round: 2 }}</td></tr>{% endfor %}</table>',
  '{% if vip %}<p>Free shipping!</p>{% else %}<p>Shipping: 5</p>{% endif %}',
  '<p>Note: {{ note }}</p>',
].join('\n');
const ORDER_TEXT = '{% for line in lines %}- {{ line.name }} x{{ line.qty }}\n{% endfor %}Total items: {{ lines | size }}';

describe('Liquid templates at send time', () => {
  it('renders loops over order lines, filters and conditions per recipient, values in html still cleaned', async () => {
    const t = await createTemplate(s, { html: ORDER_HTML, text: ORDER_TEXT, subject: 'Order {{ order.number }}: {{ lines | size }} items' });
    expect(t.variables).toEqual({ order: null, lines: null, vip: null, note: null });
    const [a, b] = [rcpt('lines-a'), rcpt('lines-b')];
    const res = await send({
      to: [{ email: a }, { email: b }],
      template_id: t.id,
      personalization: [
        {
          email: a,
          data: {
            order: { number: 'A-17' },
            vip: true,
            note: '<b>ok</b><script>alert(1)</script>',
            lines: [
              { name: 'socks', qty: 2, price: 3.5 },
              { name: 'hat', qty: 1, price: 12 },
            ],
          },
        },
        { email: b, data: { order: { number: 'B-9' }, vip: false, lines: [{ name: 'scarf', qty: 3, price: 7 }] } },
      ],
    });
    expect(res.status).toBe(202);

    const gotA = await sink.waitFor(a);
    const rawA = gotA.raw.replace(/\r?\n[ \t]+/g, ' ');
    expect(rawA).toMatch(/^Subject: Order A-17: 2 items\r?$/m);
    const bodyA = unqp(gotA.raw);
    expect(bodyA).toContain('<td>1</td><td>SOCKS</td><td>2 x 3.5</td>');
    expect(bodyA).toContain('<td>2</td><td>HAT</td><td>1 x 12</td>');
    expect(bodyA).toContain('<p>Free shipping!</p>');
    expect(bodyA).toContain('<p>Note: <b>ok</b></p>');
    expect(bodyA).not.toContain('<script>');
    expect(bodyA).toContain('- socks x2');
    expect(bodyA).toContain('Total items: 2');

    const gotB = await sink.waitFor(b);
    expect(gotB.raw.replace(/\r?\n[ \t]+/g, ' ')).toMatch(/^Subject: Order B-9: 1 items\r?$/m);
    const bodyB = unqp(gotB.raw);
    expect(bodyB).toContain('<td>1</td><td>SCARF</td><td>3 x 7</td>');
    expect(bodyB).not.toContain('HAT');
    expect(bodyB).toContain('<p>Shipping: 5</p>');
  });

  it('keeps {{var}} sends as they were: dotted keys, missing values and lists empty, the unsubscribe link tracking\'s', async () => {
    const to = rcpt('plain');
    const res = await send({
      to: [{ email: to }],
      subject: 'Hi {{name}}',
      html: '<p>{{ name }} #{{order.id}} [{{missing}}] {{ list }}</p>',
      text: 'Hi {{name}} {{order.id}}\nLeave: {{ unsubscribe }}',
      // The data cannot fill the unsubscribe link: tracking does.
      personalization: [{ email: to, data: { name: 'Ann', 'order.id': 42, list: [1, 2], unsubscribe: 'https://evil.example/' } }],
    });
    expect(res.status).toBe(202);
    const got = await sink.waitFor(to);
    expect(got.raw).toMatch(/^Subject: Hi Ann\r?$/m);
    const body = unqp(got.raw);
    expect(body).toContain('<p>Ann #42 [] </p>');
    expect(body).toContain('Hi Ann 42');
    expect(body).toMatch(/Leave: https?:\/\/\S+\/t\/\w+\/\S+/);
    expect(body).not.toContain('evil.example');
  });

  it('a send whose own html does not parse is a 422 naming html and the line; nothing is stored', async () => {
    const to = rcpt('syntax');
    const res = await send({ to: [{ email: to }], subject: 'x', html: '<p>a</p>\n<p>b</p>\n{% if x %}never closed', text: 'x' });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('The given data was invalid.');
    expect(res.body.errors.html[0]).toMatch(/line 3/);
    expect(res.body.errors.html[0]).toMatch(/not closed/);
    expect(await messagesTo(to)).toBe(0);
  });

  it('limits hit while rendering are a 422 on the send, never a 500, and store nothing', async () => {
    const loop = await createTemplate(s, { html: '<p>{% for i in (1..1000) %}.{% endfor %}</p>', text: 'x', subject: 'Loop' });
    const big = await createTemplate(s, { html: '{% for l in lines %}{{ l }}{% endfor %}', text: 'x', subject: 'Big' });
    const alloc = await createTemplate(s, { html: '{{ s | append: s | append: s | append: s }}', text: 'x', subject: 'Alloc' });
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [loop.id, {}, /too many blocks/],
      [big.id, { lines: Array.from({ length: 30 }, () => 'y'.repeat(1000)) }, /larger than 20000 characters/],
      [alloc.id, { s: 'z'.repeat(30_000) }, /memory/],
    ];
    for (const [template_id, data, reason] of cases) {
      const to = rcpt('limit');
      const res = await send({ to: [{ email: to }], template_id, personalization: [{ email: to, data }] });
      expect(res.status).toBe(422);
      expect(res.body.errors.template_id[0]).toMatch(reason);
      expect(res.body.errors.template_id[0]).toContain(to);
      expect(await messagesTo(to)).toBe(0);
    }
    // Within the limits the same template sends.
    const to = rcpt('within');
    const ok = await send({ to: [{ email: to }], template_id: big.id, personalization: [{ email: to, data: { lines: ['a', 'b'] } }] });
    expect(ok.status).toBe(202);
    expect(unqp((await sink.waitFor(to)).raw)).toContain('ab');
  });

  it('a template edited after acceptance that no longer renders still goes out, with plain {{var}} replacement, and is counted', async () => {
    const held = await seedDomain(s, { dkim: true });
    await s.rest('PUT', `/domains/${held.id}/settings`, { body: { send_paused: true } });
    const t = await createTemplate(s, { html: '<p>Hi {{ name }}</p>', text: 'Hi {{ name }}', subject: 'Held', domain_id: held.id });
    const to = rcpt('held');
    const res = await s.rest('POST', '/email', { body: { from: { email: `a@${held.name}` }, to: [{ email: to }], template_id: t.id, personalization: [{ email: to, data: { name: 'Max' } }] } });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-send-paused')).toBe('true');
    // Valid Liquid, but over TEMPLATE_MAX_STEPS (200) whatever the data.
    expect((await s.rest('PUT', `/templates/${t.id}`, { body: { html: '<p>Hi {{ name }}{% for i in (1..1000) %}.{% endfor %}</p>' } })).status).toBe(200);
    const count = async () => Number(/^postbox_template_render_failures_total\{stage="deliver"\} (\d+)/m.exec(await scrapeMetrics(s))?.[1] ?? 0);
    const before = await count();
    await s.rest('PUT', `/domains/${held.id}/settings`, { body: { send_paused: false } });
    const body = unqp((await sink.waitFor(to)).raw);
    expect(body).toContain('<p>Hi Max{% for i in (1..1000) %}.{% endfor %}</p>');
    expect(body).toContain('Hi Max');
    expect(await count()).toBe(before + 1);
  });

  it('a bulk send reports an item that cannot render among its validation errors and sends the others', async () => {
    const [good, bad] = [rcpt('bulk-ok'), rcpt('bulk-bad')];
    const item = (to: string, text: string) => ({ from: { email: from }, to: [{ email: to }], subject: 'Bulk {{ n }}', text, personalization: [{ email: to, data: { n: 1 } }] });
    const res = await s.rest('POST', '/bulk-email', { body: [item(good, 'ok {{ n }}'), item(bad, 'x\n{% for i in (1..1000) %}{% endfor %}')] });
    expect(res.status).toBe(202);
    const data = await until(async () => {
      const r = await s.rest('GET', `/bulk-email/${res.body.bulk_email_id}`);
      return r.body.data?.state === 'completed' ? r.body.data : null;
    }, 15_000, 'the bulk send to complete');
    expect(data.validation_errors_count).toBe(1);
    expect(data.validation_errors['message.1.text'][0]).toMatch(/^The text could not be rendered for bulk-bad-.* on line 2: too many blocks/);
    expect(data.messages_id).toHaveLength(1);
    expect((await sink.waitFor(good)).raw).toMatch(/^Subject: Bulk 1\r?$/m);
    expect(await messagesTo(bad)).toBe(0);
  });

  it('the same limits answer through GraphQL send_email', async () => {
    const to = rcpt('gql');
    const res = await s.gql(
      'mutation($from: EmailAddressInput, $to: [EmailAddressInput!]!) { send_email(from: $from, to: $to, subject: "x", text: "{% for i in (1..5000) %}{% endfor %}") { message_id } }',
      { from: { email: from }, to: [{ email: to }] },
    );
    expect(res.status).toBe(422);
    expect(res.body.errors[0].extensions.errors.text[0]).toMatch(/too many blocks/);
    expect(await messagesTo(to)).toBe(0);
  });
});

describe('validation when a template is saved', () => {
  it('/v1 create and update answer 422 naming the field and the line of the error', async () => {
    const res = await s.rest('POST', '/templates', { body: { html: '<p>ok</p>\n\n<p>{{ name | nope }}</p>', text: 'x' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: 'The given data was invalid.',
      errors: { html: ['The html has a template error on line 3: undefined filter: nope.'] },
    });

    const t = await createTemplate(s);
    const upd = await s.rest('PUT', `/templates/${t.id}`, { body: { text: 'line one\n{% for x in xs %}', subject: 'Hi {{ }}' } });
    expect(upd.status).toBe(422);
    expect(upd.body.errors.text[0]).toMatch(/^The text has a template error on line 2: .*not closed/);
    expect(upd.body.errors.subject[0]).toMatch(/^The subject has a template error on line 1/);
    // Nothing of a refused update is kept.
    expect((await s.rest('GET', `/templates/${t.id}`)).body.data.variables).toBeNull();
  });

  it('tags that read files are refused: a template is one string', async () => {
    for (const html of ['{% include "secrets" %}', '{% render "x" %}', '{% layout "x" %}']) {
      const res = await s.rest('POST', '/templates', { body: { html, text: 'x' } });
      expect(res.status).toBe(422);
      expect(res.body.errors.html[0]).toMatch(/line 1: the \w+ tag is not available/);
    }
  });

  it('GraphQL create_template answers the same 422', async () => {
    const res = await s.gql('mutation { create_template(html: "a\\n{% if %}", text: "x") { id } }');
    expect(res.status).toBe(422);
    expect(res.body.errors[0].extensions.errors.html[0]).toMatch(/^The html has a template error on line 2/);
  });

  it('variables lists what the engine reads from the data, not loop items or assigned names', async () => {
    const t = await createTemplate(s, {
      html: '{% assign greeting = "Hi" %}{{ greeting }} {{ customer.name }}{% for l in order.lines %}{{ l.sku }}{{ currency }}{% endfor %}{% capture c %}x{% endcapture %}{{ c }}',
      text: '{{ unsubscribe }} {{ footer }}',
    });
    expect(t.variables).toEqual({ customer: null, order: null, currency: null, footer: null });
    const listed = await s.rest('GET', '/templates?limit=100');
    expect(listed.body.data.find((x: { id: string }) => x.id === t.id).variables).toEqual(t.variables);
  });
});
