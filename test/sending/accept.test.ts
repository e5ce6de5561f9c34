import { seedDomain, accountIdOf } from '../support/factories.js';
import { createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { sendingPurgeWorker } from '../../src/modules/sending/purge.worker.js';
import { emailsOf, setPlan, settled, sql, until } from './helpers.js';

/** POST /v1/email and the send_email mutation: every rule of SPEC.md "Sending email". */
describe('accepting a send', () => {
  let s: TestServer;
  let domain: { id: string; name: string };
  let from: string;
  let accountId: string;

  beforeAll(async () => {
    s = await startTestServer();
    domain = await seedDomain(s, { dkim: true });
    from = `hello@${domain.name}`;
    accountId = await accountIdOf(s);
  }, 60_000);
  afterAll(() => s?.close());

  const base = () => ({ from: { email: from }, to: [{ email: `r${Date.now()}@example.net` }], subject: 'S', text: 'T' });
  const post = (body: Record<string, unknown>, token?: string, headers?: Record<string, string>) =>
    s.rest('POST', '/email', { body, token, headers });
  const errorsOf = async (body: Record<string, unknown>) => {
    const res = await post(body);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('The given data was invalid.');
    return res.body.errors as Record<string, string[]>;
  };

  it('refuses a sender outside the account verified domains', async () => {
    const errs = await errorsOf({ ...base(), from: { email: 'x@not-mine.example' } });
    expect(errs['from.email']).toEqual(['The from.email domain must be verified in your account to send emails. #MS42207']);
    const unverified = await seedDomain(s, { verified: false });
    expect(Object.keys(await errorsOf({ ...base(), from: { email: `x@${unverified.name}` } }))).toEqual(['from.email']);
  });

  it('accepts a subdomain of a verified domain', async () => {
    const res = await post({ ...base(), from: { email: `x@mail.${domain.name}` } });
    expect(res.status).toBe(202);
  });

  it('checks recipients: 1 to 50 to, 10 cc and bcc, addresses and names', async () => {
    expect(Object.keys(await errorsOf({ ...base(), to: [] }))).toEqual(['to']);
    const many = Array.from({ length: 51 }, (_, i) => ({ email: `m${i}@example.net` }));
    expect((await errorsOf({ ...base(), to: many })).to).toEqual(['The to may not have more than 50 items.']);
    const eleven = Array.from({ length: 11 }, (_, i) => ({ email: `c${i}@example.net` }));
    expect(Object.keys(await errorsOf({ ...base(), cc: eleven, bcc: eleven }))).toEqual(['cc', 'bcc']);
    // Missing fields and wrong JSON types are answered first, then the rules of each value.
    expect(await errorsOf({ ...base(), to: [{ email: 'a@example.net' }, {}] })).toEqual({ 'to.1.email': ['The to.1.email field is required.'] });
    const errs = await errorsOf({ ...base(), to: [{ email: 'nope' }, { email: 'a@example.net', name: 'Doe, John' }] });
    expect(errs['to.0.email']).toEqual(['The to.0.email must be a valid email address.']);
    expect(errs['to.1.name']).toEqual(['The to.1.name may not contain ; or ,.']);
    expect(Object.keys(await errorsOf({ ...base(), reply_to: { email: 'bad' } }))).toEqual(['reply_to.email']);
  });

  it('needs a subject and a body unless a template gives them', async () => {
    const { subject: _s, text: _t, ...bare } = base();
    const errs = await errorsOf(bare);
    expect(Object.keys(errs).sort()).toEqual(['html', 'subject', 'template_id', 'text']);
    expect(Object.keys(await errorsOf({ ...base(), subject: 'x'.repeat(999) }))).toEqual(['subject']);
    expect(Object.keys(await errorsOf({ ...base(), html: 'x'.repeat(2 * 1024 * 1024 + 1) }))).toEqual(['html']);
    expect(Object.keys(await errorsOf({ ...base(), template_id: 'nope' }))).toEqual(['template_id']);
  });

  it('checks attachments: base64, extensions, inline ids', async () => {
    const ok = Buffer.from('x').toString('base64');
    const errs = await errorsOf({
      ...base(),
      attachments: [
        { filename: 'a.exe', content: ok },
        { filename: 'b.pdf', content: '***' },
        { filename: 'c.png', content: ok, id: 'logo' },
        { filename: 'd.png', content: ok, disposition: 'sideways' },
        { filename: 'e.png', content: ok, disposition: 'inline', id: 'a b' },
      ],
    });
    expect(Object.keys(errs).sort()).toEqual([
      'attachments.0.filename',
      'attachments.1.content',
      'attachments.2.id',
      'attachments.3.disposition',
      'attachments.4.id',
    ]);
    expect(Object.keys(await errorsOf({ ...base(), attachments: [{ content: ok }] }))).toEqual(['attachments.0.filename']);
    const good = await post({ ...base(), html: '<img src="cid:logo">', attachments: [{ filename: 'logo.png', content: ok, disposition: 'inline', id: 'logo' }] });
    expect(good.status).toBe(202);
  });

  it('takes base64 as the statement that stores it does: whole quads, padding at the end, line breaks anywhere', async () => {
    const bad = ['abc', 'abcde', 'a===', 'ab=c', 'ab-_', 'ab cd', 'YWJj\tZA=='];
    for (const content of bad) {
      const errs = await errorsOf({ ...base(), attachments: [{ filename: 'a.txt', content }] });
      expect({ content, errs: Object.keys(errs) }).toEqual({ content, errs: ['attachments.0.content'] });
    }
    for (const content of ['YQ==', 'YWI=', 'YWJj', 'YW\r\nJj\n', `${Buffer.alloc(300, 7).toString('base64').replace(/(.{76})/g, '$1\r\n')}\r\n`]) {
      const res = await post({ ...base(), attachments: [{ filename: 'a.txt', content }] });
      expect({ content, status: res.status }).toEqual({ content, status: 202 });
    }
  });

  it('checks tags, language, personalization, settings and send_at', async () => {
    const errs = await errorsOf({
      ...base(),
      tags: ['1', '2', '3', '4', '5', '6'],
      language: 'xx',
      personalization: [{ email: 'bad', data: {} }],
      settings: { track_opens: 'yes', other: true },
      send_at: Math.floor(Date.now() / 1000) + 73 * 3600,
    });
    expect(Object.keys(errs).sort()).toEqual(['language', 'personalization.0.email', 'send_at', 'settings.other', 'settings.track_opens', 'tags']);
    expect((await errorsOf({ ...base(), tags: ['x'.repeat(192)] }))['tags.0']).toBeDefined();
    expect((await errorsOf({ ...base(), send_at: 'tomorrow' })).send_at).toBeDefined();
    expect((await errorsOf({ ...base(), send_at: Math.floor(Date.now() / 1000) - 3600 })).send_at).toBeDefined();
  });

  it('gates paid fields by plan', async () => {
    await setPlan(s, accountId, 'free');
    const errs = await errorsOf({
      ...base(),
      in_reply_to: '<a@b>',
      references: ['<c@d>'],
      headers: [{ name: 'X-A', value: '1' }],
      list_unsubscribe: '<https://example.net/u>',
    });
    expect(errs.in_reply_to[0]).toMatch(/paid plans only/);
    expect(errs.references[0]).toMatch(/paid plans only/);
    expect(errs.headers[0]).toMatch(/Professional and Enterprise/);
    expect(errs.list_unsubscribe[0]).toMatch(/Professional and Enterprise/);
    await setPlan(s, accountId, 'starter');
    expect(Object.keys(await errorsOf({ ...base(), in_reply_to: '<a@b>', headers: [{ name: 'X-A', value: '1' }] }))).toEqual(['headers']);
    expect(Object.keys(await errorsOf({ ...base(), in_reply_to: 'bad"quote' }))).toEqual(['in_reply_to']);
    await setPlan(s, accountId, 'professional');
    const bad = await errorsOf({ ...base(), headers: [{ name: 'X A', value: '1' }, { name: 'From', value: 'x' }], list_unsubscribe: 'https://no-brackets' });
    expect(Object.keys(bad).sort()).toEqual(['headers.0.name', 'headers.1.name', 'list_unsubscribe']);
    const ok = await post({ ...base(), in_reply_to: '<a@b>', references: ['<c@d>'], headers: [{ name: 'X-A', value: '1' }], list_unsubscribe: '<mailto:u@example.net>' });
    expect(ok.status).toBe(202);
    await setPlan(s, accountId, 'free');
  });

  it('writes the message, its emails and their queued activity, and delivers it', async () => {
    const to = `q${Date.now()}@example.net`;
    const res = await post({ ...base(), to: [{ email: to }] });
    expect(res.status).toBe(202);
    const id = res.headers.get('x-message-id')!;
    const [email] = await settled(s, id);
    expect(email.status).toBe('delivered');
    // The capture transport kept the signed message.
    const [kept] = await sql(s, 'select raw from captured_mails where email_id = ?', [email.id]);
    expect(kept.raw).toMatch(/^DKIM-Signature: /m);
    const recipients = await s.rest('GET', `/recipients?domain_id=${domain.id}&limit=100`);
    expect(recipients.body.data.map((r: any) => r.email)).toContain(to);
  });

  it('holds messages while the domain has sending paused, and sends them when unpaused', async () => {
    const paused = await seedDomain(s, { dkim: true });
    await s.rest('PUT', `/domains/${paused.id}/settings`, { body: { send_paused: true } });
    const res = await post({ ...base(), from: { email: `a@${paused.name}` } });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-send-paused')).toBe('true');
    const id = res.headers.get('x-message-id')!;
    await new Promise((r) => setTimeout(r, 1500));
    expect((await emailsOf(s, id))[0].status).toBe('paused');
    await s.rest('PUT', `/domains/${paused.id}/settings`, { body: { send_paused: false } });
    expect((await settled(s, id))[0].status).toBe('delivered');
  });

  it('skips duplicate recipients only when the domain ignores them', async () => {
    const dup = `dup${Date.now()}@example.net`;
    const body = { ...base(), to: [{ email: dup }, { email: dup.toUpperCase() }], cc: [{ email: dup }] };
    const kept = await post(body);
    expect((await emailsOf(s, kept.headers.get('x-message-id')!)).length).toBe(2);
    const d = await seedDomain(s, { dkim: true });
    await s.rest('PUT', `/domains/${d.id}/settings`, { body: { ignore_duplicated_recipients: true } });
    const res = await post({ ...body, from: { email: `a@${d.name}` } });
    const id = res.headers.get('x-message-id')!;
    expect((await emailsOf(s, id)).map((e) => e.to_email)).toEqual([dup]);
    const [m] = await sql(s, 'select cc from messages where id = ?', [id]);
    expect(m.cc).toEqual([]);
  });

  it('returns the first answer for a repeated Idempotency-Key and sends nothing new', async () => {
    const body = base();
    const key = `k-${Date.now()}`;
    const [a, b] = await Promise.all([post(body, undefined, { 'idempotency-key': key }), post(body, undefined, { 'idempotency-key': key })]);
    expect(a.status).toBe(202);
    expect(b.status).toBe(202);
    expect(b.headers.get('x-message-id')).toBe(a.headers.get('x-message-id'));
    const c = await post(body, undefined, { 'idempotency-key': key });
    expect(c.headers.get('x-message-id')).toBe(a.headers.get('x-message-id'));
    const [{ n }] = await sql(s, `select count(*)::int as n from messages m join emails e on e.message_id = m.id where e.to_email = ?`, [body.to[0].email]);
    expect(n).toBe(1);
    const other = await post({ ...body, subject: 'changed' }, undefined, { 'idempotency-key': key });
    expect(other.status).toBe(422);
    expect(Object.keys(other.body.errors)).toEqual(['Idempotency-Key']);
  });

  it('forgets an Idempotency-Key after 24 hours', async () => {
    const body = base();
    const key = `old-${Date.now()}`;
    const first = await post(body, undefined, { 'idempotency-key': key });
    await sql(s, `update idempotency_keys set created_at = now() - interval '25 hours' where key = ?`, [key]);
    const again = await post(body, undefined, { 'idempotency-key': key });
    expect(again.status).toBe(202);
    expect(again.headers.get('x-message-id')).not.toBe(first.headers.get('x-message-id'));
    // The hourly purge drops expired keys that were never reused.
    const stale = `stale-${Date.now()}`;
    await post(base(), undefined, { 'idempotency-key': stale });
    await sql(s, `update idempotency_keys set created_at = now() - interval '25 hours' where key = ?`, [stale]);
    await sendingPurgeWorker.perform({}, s.app.services, { id: 'test', retryCount: 0, retryLimit: 0 });
    expect(await sql(s, 'select key from idempotency_keys where key in (?, ?)', [key, stale])).toEqual([{ key }]);
  });

  it('sends from a template with its default subject and sender', async () => {
    const t = await s.rest('POST', '/templates', {
      body: { name: 'Welcome', html: '<p>Hi {{name}}</p>', text: 'Hi {{name}}', subject: 'Welcome {{name}}', from_email: from, domain_id: domain.id },
    });
    expect(t.status).toBe(201);
    const to = `t${Date.now()}@example.net`;
    const res = await post({ to: [{ email: to }], template_id: t.body.data.id, personalization: [{ email: to, data: { name: 'Bo' } }] });
    expect(res.status).toBe(202);
    const [email] = await settled(s, res.headers.get('x-message-id')!);
    expect(email.subject).toBe('Welcome Bo');
    const [kept] = await sql(s, 'select html from captured_mails where email_id = ?', [email.id]);
    expect(kept.html).toContain('Hi Bo');
  });

  it('does not send a scheduled message whose template was deleted', async () => {
    const t = await s.rest('POST', '/templates', { body: { name: 'Gone', html: '<p>x</p>', text: 'x', domain_id: domain.id } });
    const res = await post({ ...base(), text: undefined, template_id: t.body.data.id, send_at: Math.floor(Date.now() / 1000) + 2 });
    expect(res.status).toBe(202);
    const id = res.headers.get('x-message-id')!;
    expect((await emailsOf(s, id))[0].status).toBe('scheduled');
    expect((await s.rest('DELETE', `/templates/${t.body.data.id}`)).status).toBe(204);
    const [msg] = await until(async () => {
      const rows = await sql(s, `select status, status_message from messages where id = ? and status = 'error'`, [id]);
      return rows.length ? rows : null;
    }, 15_000, 'the schedule to fail');
    expect(msg.status_message).toMatch(/template was deleted/);
    expect((await emailsOf(s, id))[0].status).toBe('cancelled');
  }, 20_000);

  it('checks suppressions again at send time: a scheduled send to an address unsubscribed since is not sent', async () => {
    const to = `late${Date.now()}@example.net`;
    const res = await post({ ...base(), to: [{ email: to }], send_at: Math.floor(Date.now() / 1000) + 2 });
    const id = res.headers.get('x-message-id')!;
    const added = await s.rest('POST', '/suppressions/unsubscribes', { body: { domain_id: domain.id, recipients: [to] } });
    expect(added.status).toBe(201);
    const [email] = await settled(s, id, 15_000);
    expect(email).toMatchObject({ status: 'suppressed', suppression_reason: 'unsubscribed' });
    expect(await sql(s, 'select id from captured_mails where email_id = ?', [email.id])).toEqual([]);
    const types = (await sql(s, 'select type from activities where email_id = ? order by created_at', [email.id])).map((r) => r.type);
    expect(types).toEqual(['queued', 'suppressed']);
  }, 20_000);

  it('is scoped: scope, domain-limited tokens and other accounts', async () => {
    const readOnly = await tokenWith(s, ['domains_read']);
    expect((await post(base(), readOnly)).status).toBe(403);
    expect((await post(base(), null as never)).status).toBe(401);
    const other = await seedDomain(s, { dkim: true });
    const limited = await tokenWith(s, ['email_full'], other.id);
    expect((await post(base(), limited)).status).toBe(403);
    const stranger = await createAccount(s, 'Stranger');
    const res = await post(base(), stranger.token);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.errors)).toEqual(['from.email']);
  });

  it('works through GraphQL with the same rules', async () => {
    const q = `mutation($from: EmailAddressInput, $to: [EmailAddressInput!]!) {
      send_email(from: $from, to: $to, subject: "G", text: "g") { message_id send_paused message warnings { type } } }`;
    const ok = await s.gql(q, { from: { email: from }, to: [{ email: `g${Date.now()}@example.net` }] });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.send_email).toMatchObject({ send_paused: false, message: null, warnings: [] });
    expect((await settled(s, ok.body.data.send_email.message_id))[0].status).toBe('delivered');
    const bad = await s.gql(q, { from: { email: 'x@elsewhere.example' }, to: [{ email: 'a@example.net' }] });
    expect(bad.body.errors[0].extensions.errors['from.email']).toBeDefined();
  });
});
