import { seedDomain } from '../support/factories.js';
import { createAccount, ISO, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.js';
import { createTemplate, NOT_FOUND } from './helpers.js';

const unqp = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h) => String.fromCharCode(parseInt(h, 16)));

let sink: SmtpSink;
let s: TestServer;
let domain: { id: string; name: string };
let seq = 0;
const rcpt = (tag: string) => `${tag}-${++seq}-${Date.now().toString(36)}@example.net`;

beforeAll(async () => {
  sink = await startSmtpSink();
  s = await startTestServer({ env: { MAIL_TRANSPORT: `smtp://127.0.0.1:${sink.port}` } });
  domain = await seedDomain(s, { dkim: true });
}, 60_000);
afterAll(async () => {
  await s?.close();
  await sink?.close();
});

const KEYS = ['created_at', 'html', 'id', 'language', 'subject', 'template_id', 'text', 'updated_at', 'variables'];
const path = (templateId: string, language?: string) => `/templates/${templateId}/translations${language ? `/${language}` : ''}`;

describe('template translations through /v1', () => {
  it('create, read, list by language, update and delete', async () => {
    const t = await createTemplate(s, { subject: 'Hello {{ name }}', domain_id: domain.id });
    const made = await s.rest('POST', path(t.id), { body: { language: 'de', subject: 'Hallo {{ name }}', html: '<p>Hallo {{ name }}</p>', text: 'Hallo {{ name }}' } });
    expect(made.status).toBe(201);
    expect(Object.keys(made.body.data).sort()).toEqual(KEYS);
    expect(made.body.data).toMatchObject({ template_id: t.id, language: 'de', subject: 'Hallo {{ name }}', variables: { name: null } });
    expect(made.body.data.created_at).toMatch(ISO);
    const fr = await s.rest('POST', path(t.id), { body: { language: 'pt-BR', html: '<p>Olá</p><p>mundo</p>', auto_generate: true } });
    expect(fr.status).toBe(201);
    expect(fr.body.data).toMatchObject({ subject: null, text: 'Olá\n\nmundo' });

    const list = await s.rest('GET', path(t.id));
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { language: string }) => x.language)).toEqual(['de', 'pt-BR']);
    expect((await s.rest('GET', path(t.id, 'de'))).body.data.html).toBe('<p>Hallo {{ name }}</p>');
    expect((await s.rest('GET', path(t.id, 'es'))).status).toBe(404);

    const upd = await s.rest('PUT', path(t.id, 'de'), { body: { html: '<p>Guten Tag {{ name }}</p>' } });
    expect(upd.status).toBe(200);
    expect(upd.body.data).toMatchObject({ html: '<p>Guten Tag {{ name }}</p>', subject: 'Hallo {{ name }}', text: 'Hallo {{ name }}' });
    expect((await s.rest('PUT', path(t.id, 'es'), { body: { html: 'x' } })).status).toBe(404);

    expect((await s.rest('DELETE', path(t.id, 'pt-BR'))).status).toBe(204);
    expect((await s.rest('DELETE', path(t.id, 'pt-BR'))).status).toBe(404);
    expect((await s.rest('GET', path(t.id))).body.data.map((x: { language: string }) => x.language)).toEqual(['de']);
  });

  it('422: a language outside SPEC.md\'s list, a second one of a language, missing content, a syntax error with its line', async () => {
    const t = await createTemplate(s);
    const bad = await s.rest('POST', path(t.id), { body: { language: 'xx', html: '<p>x</p>', text: 'x' } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ language: ['The selected language is invalid.'] });
    expect((await s.rest('POST', path(t.id), { body: { language: 'fr', html: '<p>x</p>', text: 'x' } })).status).toBe(201);
    const twice = await s.rest('POST', path(t.id), { body: { language: 'fr', html: '<p>y</p>', text: 'y' } });
    expect(twice.status).toBe(422);
    expect(twice.body.errors).toEqual({ language: ['The language has already been taken.'] });
    const noText = await s.rest('POST', path(t.id), { body: { language: 'it', html: '<p>x</p>' } });
    expect(noText.body.errors).toEqual({ text: ['The text field is required.'] });
    expect((await s.rest('POST', path(t.id), { body: { language: 'it', text: 'x' } })).body.errors).toEqual({ html: ['The html field is required.'] });
    const syntax = await s.rest('PUT', path(t.id, 'fr'), { body: { html: '<p>ok</p>\n{% for x in %}' } });
    expect(syntax.status).toBe(422);
    expect(syntax.body.errors.html[0]).toMatch(/^The html has a template error on line 2/);
    expect((await s.rest('GET', path(t.id, 'fr'))).body.data.html).toBe('<p>x</p>');
  });

  it('deleting the template deletes its translations', async () => {
    const t = await createTemplate(s);
    await s.rest('POST', path(t.id), { body: { language: 'nl', html: '<p>x</p>', text: 'x' } });
    expect((await s.rest('DELETE', `/templates/${t.id}`)).status).toBe(204);
    expect((await s.rest('GET', path(t.id))).status).toBe(404);
  });
});

describe('who can reach a translation: only through a template they can see', () => {
  it('another account\'s template\'s translations are unknown', async () => {
    const other = await createAccount(s);
    const theirs = await createTemplate(s, {}, other.token);
    expect((await s.rest('POST', path(theirs.id), { token: other.token, body: { language: 'de', html: '<p>x</p>', text: 'x' } })).status).toBe(201);
    for (const [method, p, body] of [
      ['GET', path(theirs.id), undefined],
      ['GET', path(theirs.id, 'de'), undefined],
      ['POST', path(theirs.id), { language: 'es', html: 'x', text: 'x' }],
      ['PUT', path(theirs.id, 'de'), { html: 'y' }],
      ['DELETE', path(theirs.id, 'de'), undefined],
    ] as const) {
      const res = await s.rest(method, p, { body });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    expect((await s.rest('GET', path(theirs.id, 'de'), { token: other.token })).body.data.html).toBe('<p>x</p>');
  });

  it('a domain-limited token: its domain\'s templates only; another domain\'s 403, an account-wide one 404', async () => {
    const [mine, other] = [await seedDomain(s), await seedDomain(s)];
    const token = await tokenWith(s, ['templates_full'], mine.id);
    const own = await createTemplate(s, { domain_id: mine.id });
    const foreign = await createTemplate(s, { domain_id: other.id });
    const shared = await createTemplate(s);
    for (const t of [own, foreign, shared]) await s.rest('POST', path(t.id), { body: { language: 'es', html: '<p>x</p>', text: 'x' } });
    expect((await s.rest('GET', path(own.id, 'es'), { token })).status).toBe(200);
    expect((await s.rest('POST', path(own.id), { token, body: { language: 'lt', html: '<p>x</p>', text: 'x' } })).status).toBe(201);
    expect((await s.rest('GET', path(foreign.id), { token })).status).toBe(403);
    expect((await s.rest('PUT', path(foreign.id, 'es'), { token, body: { html: 'y' } })).status).toBe(403);
    expect((await s.rest('GET', path(shared.id, 'es'), { token })).status).toBe(404);
    expect((await s.rest('DELETE', path(shared.id, 'es'), { token })).status).toBe(404);
  });

  it('without templates_full: 403', async () => {
    const t = await createTemplate(s);
    const token = await tokenWith(s, ['email_full']);
    expect((await s.rest('GET', path(t.id), { token })).status).toBe(403);
  });
});

describe('template translations through GraphQL', () => {
  it('the same operations and errors', async () => {
    const t = await createTemplate(s);
    const made = await s.gql(
      'mutation($id: ID!) { create_template_translation(template_id: $id, language: "en", subject: "Hi", html: "<p>Hi</p>", text: "Hi") { id language subject } }',
      { id: t.id },
    );
    expect(made.body.errors).toBeUndefined();
    expect(made.body.data.create_template_translation).toMatchObject({ language: 'en', subject: 'Hi' });
    const upd = await s.gql('mutation($id: ID!) { update_template_translation(template_id: $id, language: "en", subject: null) { subject } }', { id: t.id });
    expect(upd.body.data.update_template_translation.subject).toBeNull();
    const list = await s.gql('query($id: ID!) { template_translations(template_id: $id) { language } }', { id: t.id });
    expect(list.body.data.template_translations).toEqual([{ language: 'en' }]);
    const bad = await s.gql('mutation($id: ID!) { create_template_translation(template_id: $id, language: "pl", html: "{{ x | nope }}", text: "x") { id } }', { id: t.id });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].extensions.errors.html[0]).toMatch(/line 1: undefined filter: nope/);
    const del = await s.gql('mutation($id: ID!) { delete_template_translation(template_id: $id, language: "en") }', { id: t.id });
    expect(del.body.data.delete_template_translation).toBe(true);
  });
});

describe('sends naming a language', () => {
  const send = (body: Record<string, unknown>) => s.rest('POST', '/email', { body: { from: { email: `hi@${domain.name}` }, ...body } });

  it('use the translation: its subject, html and text, personalized', async () => {
    const t = await createTemplate(s, { subject: 'Hello {{ name }}', html: '<p>Hello {{ name }}</p>', text: 'Hello {{ name }}', domain_id: domain.id });
    await s.rest('POST', path(t.id), { body: { language: 'de', subject: 'Hallo {{ name }}', html: '<p>Hallo {{ name }}{% if vip %}, VIP{% endif %}</p>', text: 'Hallo {{ name }}' } });
    const to = rcpt('de');
    const res = await send({ to: [{ email: to }], template_id: t.id, language: 'de', personalization: [{ email: to, data: { name: 'Jo', vip: true } }] });
    expect(res.status).toBe(202);
    const got = await sink.waitFor(to);
    expect(got.raw).toMatch(/^Subject: Hallo Jo\r?$/m);
    const body = unqp(got.raw);
    expect(body).toContain('<p>Hallo Jo, VIP</p>');
    expect(body).not.toContain('Hello');
    // The email log and the activity show what was sent: the translation, not the base content.
    const listed = await s.rest('GET', `/emails?message_id=${res.headers.get('x-message-id')}`);
    const email = await s.rest('GET', `/email/${listed.body.data[0].id}`);
    expect(email.body.data.html).toContain('Hallo');
    expect(email.body.data.html).not.toContain('Hello');
    expect(email.body.data.text).toBe('Hallo {{ name }}');
  });

  it('fall back to the template\'s content, with no error, when there is no translation in that language', async () => {
    const t = await createTemplate(s, { subject: 'Hello {{ name }}', html: '<p>Hello {{ name }}</p>', text: 'Hello {{ name }}', domain_id: domain.id });
    await s.rest('POST', path(t.id), { body: { language: 'de', html: '<p>Hallo</p>', text: 'Hallo' } });
    const [fr, de] = [rcpt('fr'), rcpt('de-nosubject')];
    expect((await send({ to: [{ email: fr }], template_id: t.id, language: 'fr', personalization: [{ email: fr, data: { name: 'Flo' } }] })).status).toBe(202);
    const got = await sink.waitFor(fr);
    expect(got.raw).toMatch(/^Subject: Hello Flo\r?$/m);
    expect(unqp(got.raw)).toContain('<p>Hello Flo</p>');
    // A translation without a subject takes the template's default one; the send's own subject wins over both.
    expect((await send({ to: [{ email: de }], template_id: t.id, language: 'de', subject: 'Own {{ name }}', personalization: [{ email: de, data: { name: 'Di' } }] })).status).toBe(202);
    const gotDe = await sink.waitFor(de);
    expect(gotDe.raw).toMatch(/^Subject: Own Di\r?$/m);
    expect(unqp(gotDe.raw)).toContain('<p>Hallo</p>');
  });

  it('a translation that cannot render with the data is a 422 on the send, naming template_id', async () => {
    const t = await createTemplate(s, { subject: 'S', domain_id: domain.id });
    await s.rest('POST', path(t.id), { body: { language: 'es', html: '{% for i in (1..100000000) %}x{% endfor %}', text: 'x' } });
    const to = rcpt('es');
    const res = await send({ to: [{ email: to }], template_id: t.id, language: 'es' });
    expect(res.status).toBe(422);
    expect(res.body.errors.template_id[0]).toMatch(/could not be rendered/);
    // Without the language the template's own content sends.
    expect((await send({ to: [{ email: to }], template_id: t.id })).status).toBe(202);
  });
});
