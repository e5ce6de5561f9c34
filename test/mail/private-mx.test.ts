import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { settled, sql, until } from '../sending/helpers.js';
import { LOOKS_LIKE_IP, startListeningSmtp, type ListeningSmtp } from '../verification/listening-smtp.js';

/**
 * MAIL_TRANSPORT=mx connects only to public addresses unless MX_ALLOW_PRIVATE: a recipient
 * domain's DNS must not make the service open connections into its own network. The reason
 * recorded for the sender names no address and no errno.
 */
const ERRNO = /\bE[A-Z]{3,}\b/;

async function send(s: TestServer, to: string[]): Promise<string> {
  const domain = await seedDomain(s, { dkim: true });
  const res = await s.rest('POST', '/email', {
    body: { from: { email: `hi@${domain.name}` }, to: to.map((email) => ({ email })), subject: 'Via MX', text: 'x' },
  });
  expect(res.status).toBe(202);
  return res.headers.get('x-message-id')!;
}

/** What the sending account can read about one email: its last response and its activity. */
async function recorded(s: TestServer, emailId: string) {
  const [email] = await sql<{ status: string; last_response: string }>(s, 'select status, last_response from emails where id = ?', [emailId]);
  const activity = await sql<{ type: string; data: { smtp_response?: string } }>(
    s,
    'select type, data from activities where email_id = ? order by created_at, id',
    [emailId],
  );
  return { email, activity: activity.map((a) => [a.type, a.data?.smtp_response]) };
}

describe('MAIL_TRANSPORT=mx with MX_ALLOW_PRIVATE=false', () => {
  let smtp: ListeningSmtp;
  let s: TestServer;
  beforeAll(async () => {
    smtp = await startListeningSmtp();
    s = await startTestServer({ env: { MAIL_TRANSPORT: 'mx', MX_PORT: String(smtp.port), MX_ALLOW_PRIVATE: 'false', DELIVERY_TIMEOUT_MS: '3000' } });
    s.dns.add('loop.test', { type: 'MX', exchange: 'mx.loop.test', priority: 10 });
    s.dns.add('mx.loop.test', { type: 'A', address: '127.0.0.1' });
    s.dns.add('ten.test', { type: 'MX', exchange: 'mx.ten.test', priority: 10 });
    s.dns.add('mx.ten.test', { type: 'A', address: '10.0.0.5' });
    s.dns.add('v6.test', { type: 'MX', exchange: '::1', priority: 10 });
    s.dns.add('mapped.test', { type: 'MX', exchange: '::ffff:127.0.0.1', priority: 10 });
    s.dns.add('implicit.test', { type: 'A', address: '127.0.0.1' });
    s.dns.add('both.test', { type: 'MX', exchange: 'a.both.test', priority: 5 });
    s.dns.add('a.both.test', { type: 'A', address: '127.0.0.1' });
    s.dns.add('both.test', { type: 'MX', exchange: 'b.both.test', priority: 10 });
    s.dns.add('b.both.test', { type: 'A', address: '172.16.0.9' });
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });

  it.each(['loop.test', 'ten.test', 'v6.test', 'mapped.test', 'implicit.test', 'both.test'])(
    'an email to %s is never handed to its MX: a hard bounce with a generic reason, not a retry',
    async (domain) => {
      const reason = `no permitted mail host for ${domain}`;
      const [email] = await settled(s, await send(s, [`bob@${domain}`]));
      expect(email.status).toBe('hard_bounced');
      const got = await recorded(s, email.id);
      expect(got.email).toEqual({ status: 'hard_bounced', last_response: reason });
      expect(got.activity).toEqual([['queued', undefined], ['hard_bounced', reason]]);
      expect(reason).not.toMatch(LOOKS_LIKE_IP);
      expect(reason).not.toMatch(ERRNO);
      // Permanent: the recipient is suppressed, as for a domain with no mail host.
      const [suppressed] = await sql(s, `select reason from suppressions where list = 'hard_bounces' and recipient_id = (select recipient_id from emails where id = ?)`, [email.id]);
      expect(suppressed?.reason).toBe(reason);
      expect(smtp.connections).toBe(0);
    },
  );

  it('mail the service writes itself (an invitation) is refused the same way', async () => {
    const res = await s.rest('POST', '/users', { body: { email: 'ann@loop.test', role: 'manager' } });
    expect(res.status).toBe(200);
    await until(
      async () => (await sql(s, `select state from pgboss.job where name = 'system-mail.send' and data->>'to' = 'ann@loop.test' and state = 'completed'`)).length,
      10_000,
      'the invitation job to finish',
    );
    expect(smtp.connections).toBe(0);
  });

  it('the listening server saw no connection at all', () => {
    expect(smtp.peers).toEqual([]);
    expect(smtp.messages).toBe(0);
  });
});

/** With the switch on (as in the rest of the suite) the same MX is used, and socket errors stay generic. */
describe('MAIL_TRANSPORT=mx with MX_ALLOW_PRIVATE=true', () => {
  let smtp: ListeningSmtp;
  let s: TestServer;
  beforeAll(async () => {
    smtp = await startListeningSmtp();
    s = await startTestServer({ env: { MAIL_TRANSPORT: 'mx', MX_PORT: String(smtp.port), MX_ALLOW_PRIVATE: 'true', DELIVERY_TIMEOUT_MS: '3000' } });
    s.dns.add('v6.test', { type: 'MX', exchange: '::1', priority: 10 });
    // 127.0.0.2: permitted now, and nothing listens there.
    s.dns.add('closed.test', { type: 'MX', exchange: 'mx.closed.test', priority: 10 });
    s.dns.add('mx.closed.test', { type: 'A', address: '127.0.0.2' });
    s.dns.add('pooled.test', { type: 'MX', exchange: 'mx.pooled.test', priority: 10 });
    s.dns.add('mx.pooled.test', { type: 'A', address: '127.0.0.1' });
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });

  it('delivers to an MX on ::1', async () => {
    const [email] = await settled(s, await send(s, ['bob@v6.test']));
    expect(email.status).toBe('delivered');
    expect(smtp.peers).toEqual(['::1']);
    expect(smtp.messages).toBe(1);
  });

  it('sends one after another to an MX over one reused connection', async () => {
    const before = smtp.peers.length;
    const sent = smtp.messages;
    for (let i = 0; i < 3; i++) expect((await settled(s, await send(s, [`r${i}@pooled.test`])))[0].status).toBe('delivered');
    expect(smtp.messages).toBe(sent + 3);
    expect(smtp.peers.slice(before)).toEqual(['127.0.0.1']);
  });

  it('a connection that fails is deferred with a generic reason, without address or errno', async () => {
    const messageId = await send(s, ['bob@closed.test']);
    const email = await until(
      async () => (await sql<{ id: string; status: string }>(s, `select id, status from emails where message_id = ? and status <> 'queued'`, [messageId]))[0],
      10_000,
      'the first attempt',
    );
    expect(email.status).toBe('deferred');
    const got = await recorded(s, email.id);
    expect(got.email).toEqual({ status: 'deferred', last_response: 'the mail server could not be reached' });
    expect(got.activity).toEqual([['queued', undefined], ['deferred', 'the mail server could not be reached']]);
  });
});
