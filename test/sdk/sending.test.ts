import { Attachment, BlockListType, EmailParams, Recipient, Sender, type MailerSend } from 'mailersend';
import { setPlan } from '../sending/helpers.js';
import { accountIdOf, seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { failure, INVALID, sdkFor, UNAUTHENTICATED } from './sdk.js';
import { addr, captured, settled, simple, sql } from './send-helpers.js';

let s: TestServer;
let ms: MailerSend;
let domain: { id: string; name: string };
beforeAll(async () => {
  s = await startTestServer();
  ms = sdkFor(s);
  domain = await seedDomain(s, { dkim: true });
}, 60_000);
afterAll(async () => {
  await s?.close();
});

const PNG = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
const header = (c: { headers: string }, name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(c.headers)?.[1];

describe('ms.email.send', () => {
  it('answers 202 with x-message-id and an empty body; the mail is delivered', async () => {
    const to = addr();
    const res = await ms.email.send(simple(domain, to));
    expect(res.statusCode).toBe(202);
    expect(res.headers['x-message-id']).toMatch(/^[a-z0-9]{24}$/);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['x-send-paused']).toBeUndefined();
    expect(res.body === '' || res.body == null).toBe(true);
    const [mail] = await captured(s, res.headers['x-message-id'] as string);
    expect(mail).toMatchObject({ to, status: 'delivered', subject: 'Hi' });
    expect(header(mail, 'From')).toBe(`Hello <hello@${domain.name}>`);
    expect(header(mail, 'To')).toBe(`Someone <${to}>`);
    expect(mail.text).toContain('Plain');
    expect(mail.html).toContain('<p>HTML</p>');
  });

  it('sends every EmailParams field: cc, bcc, reply-to, personalization, attachments, tags, settings, headers', async () => {
    await setPlan(s, await accountIdOf(s), 'professional');
    const [a, b, cc, bcc] = [addr('a'), addr('b'), addr('cc'), addr('bcc')];
    const params = new EmailParams()
      .setFrom(new Sender(`news@${domain.name}`, 'News'))
      .setTo([new Recipient(a, 'Ann'), new Recipient(b)])
      .setCc([new Recipient(cc, 'Copy')])
      .setBcc([new Recipient(bcc)])
      .setReplyTo(new Recipient(`replies@${domain.name}`, 'Replies'))
      .setSubject('Hello {{name}}')
      .setHtml('<p>Dear {{name}}, <img src="cid:logo"> <a href="https://shop.example/x">shop</a></p>')
      .setText('Dear {{name}}')
      .setPersonalization([
        { email: a, data: { name: 'Ann' } },
        { email: b, data: { name: 'Bob' } },
      ])
      .setAttachments([
        new Attachment(Buffer.from('col\n1\n').toString('base64'), 'report.csv'),
        new Attachment(PNG, 'logo.png', 'inline', 'logo'),
      ])
      .setTags(['welcome', 'sdk'])
      .setSettings({ track_opens: false, track_clicks: false, track_content: true })
      .setPrecedenceBulk(true)
      .setInReplyTo('<parent@example.net>')
      .setReferences(['<root@example.net>', '<parent@example.net>'])
      .setHeaders([{ name: 'X-Campaign', value: 'spring' }])
      .setListUnsubscribe('<mailto:leave@example.net>');
    const res = await ms.email.send(params);
    expect(res.statusCode).toBe(202);
    const mails = await captured(s, res.headers['x-message-id'] as string);
    expect(mails.map((m) => [m.to, m.status, m.subject])).toEqual([
      [a, 'delivered', 'Hello Ann'],
      [b, 'delivered', 'Hello Bob'],
    ]);
    const [ann, bob] = mails as [(typeof mails)[0], (typeof mails)[0]];
    expect(ann.html).toContain('Dear Ann');
    expect(ann.text).toContain('Dear Ann');
    expect(bob.html).toContain('Dear Bob');
    expect(header(ann, 'Cc')).toBe(`Copy <${cc}>`);
    expect(header(ann, 'Bcc')).toBeUndefined();
    expect(header(ann, 'Reply-To')).toBe(`Replies <replies@${domain.name}>`);
    expect(header(ann, 'Precedence')).toBe('bulk');
    expect(header(ann, 'In-Reply-To')).toBe('<parent@example.net>');
    expect(header(ann, 'References')).toBe('<root@example.net> <parent@example.net>');
    expect(header(ann, 'X-Campaign')).toBe('spring');
    expect(header(ann, 'List-Unsubscribe')).toBe('<mailto:leave@example.net>');
    // Attachments: one as a file, the other inline under its Content-ID.
    expect(ann.raw).toMatch(/Content-Disposition: attachment;\s+filename=report\.csv/i);
    expect(ann.raw).toMatch(/Content-ID: <logo>/i);
    expect(ann.raw).toMatch(/Content-Disposition: inline;\s+filename=logo\.png/i);
    // track_opens/track_clicks false: no pixel, links left as written.
    expect(ann.html).not.toMatch(/\/t\/o\//);
    expect(ann.html).toContain('href="https://shop.example/x"');
    const rows = await sql(s, 'select tags from emails where id = ?', [ann.emailId]);
    expect(rows[0].tags).toEqual(['welcome', 'sdk']);
    await setPlan(s, await accountIdOf(s), 'free');
  });

  it('sends a template created through the SDK, personalized', async () => {
    const t = await ms.email.template.create({ name: 'SDK welcome', html: '<p>Welcome {{name}}</p>', text: 'Welcome {{name}}', domain_id: domain.id });
    expect(t.statusCode).toBe(201);
    const to = addr('tpl');
    const params = new EmailParams()
      .setFrom(new Sender(`hello@${domain.name}`))
      .setTo([new Recipient(to)])
      .setSubject('For {{name}}')
      .setTemplateId(t.body.data.id)
      .setPersonalization([{ email: to, data: { name: 'Tia' } }]);
    const res = await ms.email.send(params);
    expect(res.statusCode).toBe(202);
    const [mail] = await captured(s, res.headers['x-message-id'] as string);
    expect(mail.subject).toBe('For Tia');
    expect(mail.html).toContain('Welcome Tia');
    expect(mail.text).toContain('Welcome Tia');
    const [row] = await sql(s, 'select template_id from messages where id = ?', [res.headers['x-message-id']]);
    expect(row.template_id).toBe(t.body.data.id);
  });

  it('answers the warnings body when some recipients are suppressed', async () => {
    const gone = addr('gone');
    await ms.email.recipient.blockRecipients({ domain_id: domain.id, recipients: [gone] }, BlockListType.UNSUBSCRIBES_LIST);
    const ok = addr('ok');
    const res = await ms.email.send(simple(domain, ok).setTo([new Recipient(ok), new Recipient(gone, 'Gone')]));
    expect(res.statusCode).toBe(202);
    expect(res.headers['x-message-id']).toMatch(/^[a-z0-9]{24}$/);
    expect(res.body).toEqual({
      message: expect.any(String),
      warnings: [
        {
          type: 'SOME_SUPPRESSED',
          warning: expect.any(String),
          recipients: [{ email: gone, name: 'Gone', reasons: ['unsubscribed'] }],
        },
      ],
    });
    const rows = await settled(s, res.headers['x-message-id'] as string);
    expect(rows.map((r) => [r.to_email, r.status, r.suppression_reason])).toEqual([
      [ok, 'delivered', null],
      [gone, 'suppressed', 'unsubscribed'],
    ]);
    const kept = await sql(s, 'select email_id from captured_mails where email_id in (?, ?)', rows.map((r) => r.id));
    expect(kept.map((k) => k.email_id)).toEqual([rows[0]!.id]);
  });

  it('answers x-send-paused when the domain has sending paused', async () => {
    const paused = await seedDomain(s, { dkim: true });
    await ms.email.domain.updateSettings(paused.id, { send_paused: true });
    const res = await ms.email.send(simple(paused));
    expect(res.statusCode).toBe(202);
    expect(res.headers['x-send-paused']).toBe('true');
    expect(res.headers['x-message-id']).toMatch(/^[a-z0-9]{24}$/);
  });

  it('422 through the SDK error: unverified sender, paid-only fields on free', async () => {
    const bad = await failure(ms.email.send(simple({ name: 'not-mine.example' })));
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ message: INVALID, errors: { 'from.email': [expect.stringMatching(/must be verified/)] } });
    const paid = await failure(ms.email.send(simple(domain).setHeaders([{ name: 'X-A', value: '1' }]).setListUnsubscribe('<mailto:u@example.net>')));
    expect(paid.status).toBe(422);
    expect(Object.keys(paid.body.errors).sort()).toEqual(['headers', 'list_unsubscribe']);
    const noTo = await failure(ms.email.send(simple(domain).setTo([])));
    expect(Object.keys(noTo.body.errors)).toEqual(['to']);
  });

  it('401 for an unknown token', async () => {
    expect(await failure(sdkFor(s, 'mlsn.nope').email.send(simple(domain)))).toEqual({ status: 401, body: UNAUTHENTICATED });
  });
});
