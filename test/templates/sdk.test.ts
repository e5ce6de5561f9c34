import { EmailParams, Recipient, Sender, type MailerSend } from 'mailersend';
import { seedDomain } from '../support/factories.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { failure, INVALID, sdkFor } from '../sdk/sdk.js';
import { addr, captured, sent } from '../sdk/send-helpers.js';

/** The official SDK against Liquid templates and translations (its template and send calls; it has none for translations). */
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

describe('the SDK with Liquid templates', () => {
  it('ms.email.template.create: a syntax error is a 422 naming the field and the line', async () => {
    const res = await failure(ms.email.template.create({ html: '<p>Hi</p>\n{% for l in lines %}', text: 'x' }));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(INVALID);
    expect(res.body.errors.html[0]).toMatch(/^The html has a template error on line 2: .*not closed/);
  });

  it('ms.email.send with template_id, language and order lines in personalization', async () => {
    const created = await ms.email.template.create({
      html: '<ul>{% for l in lines %}<li>{{ l.name }} x{{ l.qty }}</li>{% endfor %}</ul>',
      text: '{% for l in lines %}{{ l.name }};{% endfor %}',
      domain_id: domain.id,
    });
    const templateId = created.body.data.id;
    expect(created.body.data.variables).toEqual({ lines: null });
    const tr = await s.rest('POST', `/templates/${templateId}/translations`, {
      body: { language: 'nl', subject: 'Bestelling van {{ name }}', html: '<ol>{% for l in lines %}<li>{{ l.qty }}x {{ l.name }}</li>{% endfor %}</ol>', text: 'nl' },
    });
    expect(tr.status).toBe(201);
    const [nl, base] = [addr('nl'), addr('base')];
    const data = { name: 'Sam', lines: [{ name: 'pen', qty: 3 }, { name: 'ink', qty: 1 }] };
    const params = (to: string) =>
      new EmailParams()
        .setFrom(new Sender(`shop@${domain.name}`, 'Shop'))
        .setTo([new Recipient(to)])
        .setTemplateId(templateId)
        .setPersonalization([{ email: to, data }]);

    const [mailNl] = await captured(s, await sent(ms, params(nl).setLanguage('nl')));
    expect(mailNl.subject).toBe('Bestelling van Sam');
    expect(mailNl.html).toContain('<ol><li>3x pen</li><li>1x ink</li></ol>');
    expect(mailNl.text).toBe('nl');

    const [mailBase] = await captured(s, await sent(ms, params(base).setSubject('Order').setLanguage('it')));
    expect(mailBase.subject).toBe('Order');
    expect(mailBase.html).toContain('<ul><li>pen x3</li><li>ink x1</li></ul>');
    expect(mailBase.text).toBe('pen;ink;');
  });
});
