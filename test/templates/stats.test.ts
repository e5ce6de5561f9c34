import { seedDomain, accountIdOf } from '../support/factories.js';
import { createAccount, ISO, startTestServer, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { setPlan, settled, sql } from '../sending/helpers.js';
import { createTemplate, NOT_FOUND, STATS } from './helpers.js';

/**
 * `template_stats` and `domain.totals` of the single template, from real sends delivered to a
 * real SMTP server that accepts some addresses and refuses others.
 */
let sink: SmtpSink;
let s: TestServer;
let domain: { id: string; name: string };
let template: { id: string };
let unused: { id: string };
let delivered: { id: string; created_at: Date };

const stamp = Date.now();
const good = `good-${stamp}@example.net`;
const hard = `hard-${stamp}@example.net`;
const soft = `soft-${stamp}@example.net`;

beforeAll(async () => {
  sink = await startSmtpSink();
  s = await startTestServer({
    env: {
      MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}`,
      DELIVERY_RETRY_LIMIT: '2',
      DELIVERY_RETRY_DELAY_SECONDS: '1',
      DELIVERY_TIMEOUT_MS: '1500',
    },
  });
  domain = await seedDomain(s, { dkim: true });
  await setPlan(s, await accountIdOf(s), 'professional');
  template = await createTemplate(s, { name: 'Stats', domain_id: domain.id });
  unused = await createTemplate(s, { name: 'Unused', domain_id: domain.id });
  sink.refuse(hard, 550);
  sink.refuse(soft, 451);

  const send = async (to: string, extra: Record<string, unknown> = {}) => {
    const res = await s.rest('POST', '/email', {
      body: { from: { email: `news@${domain.name}` }, to: [{ email: to }], subject: 'Hello', template_id: template.id, ...extra },
    });
    if (res.status !== 202) throw new Error(`send failed: ${res.status} ${res.text}`);
    return res.headers.get('x-message-id')!;
  };
  const [ok] = await settled(s, await send(good));
  await settled(s, await send(hard));
  // The hard bounce suppressed the address: this one is refused at acceptance.
  await settled(s, await send(hard));
  await settled(s, await send(soft), 20_000);
  await send(`later-${stamp}@example.net`, { send_at: Math.floor(Date.now() / 1000) + 3600 });
  // Not sent with the template: counts for the domain only.
  await settled(s, await send(`plain-${stamp}@example.net`, { template_id: undefined, text: 'Plain' }));
  const [row] = await sql(s, 'select id, created_at from emails where id = ?', [ok.id]);
  delivered = { id: row.id, created_at: new Date(row.created_at) };
}, 90_000);
afterAll(async () => {
  await s?.close();
  await sink?.close();
});

const TOTALS = { hard_bounced: 1, soft_bounced: 1, sent: 2, delivered: 2 };

describe('template stats and domain totals', () => {
  it('counts the template emails by outcome and its domain totals', async () => {
    const res = await s.rest('GET', `/templates/${template.id}`);
    expect(res.status).toBe(200);
    const { template_stats: stats, domain: d } = res.body.data;
    expect(Object.keys(stats).sort()).toEqual(Object.keys(STATS).sort());
    // good (delivered), hard (hard_bounced), hard again (suppressed), soft (soft_bounced), later (scheduled).
    expect(stats).toMatchObject({ total: 5, queued: 1, sent: 1, delivered: 1, rejected: 3 });
    expect(stats.last_email_sent_at).toMatch(ISO);
    expect(new Date(stats.last_email_sent_at).getTime()).toBe(delivered.created_at.getTime());
    expect(d).toMatchObject({ id: domain.id, totals: TOTALS });
  });

  it('gives a template that sent nothing zero stats but its domain totals', async () => {
    const res = await s.rest('GET', `/templates/${unused.id}`);
    expect(res.body.data.template_stats).toEqual(STATS);
    expect(res.body.data.domain.totals).toEqual(TOTALS);
  });

  it('answers the numbers after an update too', async () => {
    const res = await s.rest('PUT', `/templates/${template.id}`, { body: { name: 'Stats 2' } });
    expect(res.status).toBe(200);
    expect(res.body.data.template_stats).toMatchObject({ total: 5, sent: 1 });
    expect(res.body.data.domain.totals).toEqual(TOTALS);
  });

  it('answers the same through GraphQL', async () => {
    const q = `query($id: ID!) { template(template_id: $id) {
      template_stats { total queued sent rejected delivered last_email_sent_at }
      domain { id totals { hard_bounced soft_bounced sent delivered } } } }`;
    const res = await s.gql(q, { id: template.id });
    expect(res.body.errors).toBeUndefined();
    const rest = await s.rest('GET', `/templates/${template.id}`);
    expect(res.body.data.template).toEqual({
      template_stats: rest.body.data.template_stats,
      domain: { id: domain.id, totals: TOTALS },
    });
  });

  it('shows nothing of it to another account', async () => {
    const other = await createAccount(s);
    const res = await s.rest('GET', `/templates/${template.id}`, { token: other.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
    // Its own template on its own domain starts from zero.
    const theirDomain = await seedDomain(s, { token: other.token });
    const theirs = await createTemplate(s, { domain_id: theirDomain.id }, other.token);
    const got = await s.rest('GET', `/templates/${theirs.id}`, { token: other.token });
    expect(got.body.data.template_stats).toEqual(STATS);
    expect(got.body.data.domain.totals).toEqual({ hard_bounced: 0, soft_bounced: 0, sent: 0, delivered: 0 });
  });
});
