import {
  CreateTemplateCategoryDocument,
  CreateTemplateDocument,
  DeleteTemplateCategoryDocument,
  DeleteTemplateDocument,
  TemplateByIdDocument,
  TemplateCategoriesDocument,
  TemplatesDocument,
  UpdateTemplateDocument,
} from '../generated/graphql.js';
import { seedDomain } from '../support/factories.js';
import { ISO, PLAIN, createAccount, startTestServer, tokenWith, type TestServer } from '../support/server.js';
import { STATS } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const codeOf = (res: { body: { errors?: any } }) => res.body.errors?.[0]?.extensions?.code;

describe('GraphQL templates', () => {
  it('hands the stored content back to editors on GraphQL only; /v1 keeps SPEC.md\'s shape', async () => {
    const created = await s.rest('POST', '/templates', {
      body: { name: 'Editable', subject: 'Hi {{ name }}', html: '<p>{% for l in lines %}{{ l.sku }}{% endfor %}</p>', text: 'Plain {{ name }}' },
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const one = await s.gql(`query($id: ID!) { template(template_id: $id) { subject html text } }`, { id });
    expect(one.body.data.template).toEqual({ subject: 'Hi {{ name }}', html: '<p>{% for l in lines %}{{ l.sku }}{% endfor %}</p>', text: 'Plain {{ name }}' });
    const rest = await s.rest('GET', `/templates/${id}`);
    expect(rest.status).toBe(200);
    for (const key of ['subject', 'html', 'text']) expect(rest.body.data).not.toHaveProperty(key);
  });

  it('create, read, list, update and delete, in the same shapes as /v1', async () => {
    const domain = await seedDomain(s);
    const cat = (await s.gql(CreateTemplateCategoryDocument, { name: 'Gql' })).body.data!.create_template_category;
    const created = await s.gql(CreateTemplateDocument, {
      html: '<p>Hi {{ name }}</p>',
      auto_generate: true,
      name: 'Gql template',
      domain_id: domain.id,
      categories: [cat.id],
      tags: ['g'],
      subject: 'About {{ topic }}',
    });
    expect(created.body.errors).toBeUndefined();
    const t = created.body.data!.create_template;
    expect(t).toMatchObject({ name: 'Gql template', type: 'html', tags: ['g'], category: null, domain: null, template_stats: STATS });
    expect(t.variables).toEqual({ topic: null, name: null });
    expect(t.created_at).toMatch(ISO);

    const one = (await s.gql(TemplateByIdDocument, { template_id: t.id })).body.data!.template;
    expect(one.category).toEqual({ id: cat.id, name: 'Gql' });
    expect(one.domain).toMatchObject({ id: domain.id, totals: { hard_bounced: 0, soft_bounced: 0, sent: 0, delivered: 0 } });
    expect(one.updated_at).toMatch(ISO);

    const page = (await s.gql(TemplatesDocument, { domain_id: domain.id, limit: 10 })).body.data!.templates;
    expect(page.data.map((x) => x.id)).toEqual([t.id]);
    expect(page.data[0].created_at).toMatch(PLAIN);
    expect(page.meta).toEqual({ current_page: 1, from: 1, last_page: 1, per_page: 10, to: 1, total: 1 });

    const updated = await s.gql(UpdateTemplateDocument, { template_id: t.id, name: 'Renamed', text: 'Bye {{ x }}', categories: [] });
    expect(updated.body.data!.update_template).toMatchObject({ name: 'Renamed', category: null, variables: { topic: null, name: null, x: null } });

    expect((await s.gql(DeleteTemplateDocument, { template_id: t.id })).body.data!.delete_template).toBe(true);
    expect(codeOf(await s.gql(TemplateByIdDocument, { template_id: t.id }))).toBe('NOT_FOUND');
  });

  it('errors carry the same status and fields as /v1', async () => {
    const bad = await s.gql(CreateTemplateDocument, { html: '<p>x</p>', tags: ['1', '2', '3', '4', '5', '6'] });
    expect(codeOf(bad)).toBe('VALIDATION_FAILED');
    expect(bad.body.errors[0].extensions.errors).toEqual({ tags: ['The tags may not have more than 5 items.'] });
    const noText = await s.gql(CreateTemplateDocument, { html: '<p>x</p>' });
    expect(noText.body.errors[0].extensions.errors).toEqual({ text: ['The text field is required.'] });
    expect(codeOf(await s.gql(TemplateByIdDocument, { template_id: 'nope' }))).toBe('NOT_FOUND');
    expect(codeOf(await s.gql(TemplatesDocument, {}, null))).toBe('UNAUTHENTICATED');
    const noScope = await tokenWith(s, ['email_full']);
    expect(codeOf(await s.gql(TemplatesDocument, {}, noScope))).toBe('FORBIDDEN');
    const [mine, other] = [await seedDomain(s), await seedDomain(s)];
    const limited = await tokenWith(s, ['templates_full'], mine.id);
    expect(codeOf(await s.gql(CreateTemplateDocument, { html: 'x', text: 'x', domain_id: other.id }, limited))).toBe('FORBIDDEN');
  });

  it('another account\'s templates are unknown', async () => {
    const acct = await createAccount(s, 'Gql other');
    const theirs = (await s.gql(CreateTemplateDocument, { html: 'x', text: 'x' }, acct.token)).body.data!.create_template;
    expect(codeOf(await s.gql(TemplateByIdDocument, { template_id: theirs.id }))).toBe('NOT_FOUND');
    expect(codeOf(await s.gql(DeleteTemplateDocument, { template_id: theirs.id }))).toBe('NOT_FOUND');
    const list = (await s.gql(TemplatesDocument, { limit: 100 })).body.data!.templates.data;
    expect(list.map((x) => x.id)).not.toContain(theirs.id);
  });
});

describe('GraphQL template categories', () => {
  it('are created, listed by name and deleted; their templates lose the category', async () => {
    const b = (await s.gql(CreateTemplateCategoryDocument, { name: 'Beta' })).body.data!.create_template_category;
    const a = (await s.gql(CreateTemplateCategoryDocument, { name: 'Alpha' })).body.data!.create_template_category;
    const names = (await s.gql(TemplateCategoriesDocument, { limit: 100 })).body.data!.template_categories.map((c) => c.name);
    expect(names.indexOf('Alpha')).toBeLessThan(names.indexOf('Beta'));
    const t = (await s.gql(CreateTemplateDocument, { html: 'x', text: 'x', categories: [a.id] })).body.data!.create_template;
    expect((await s.gql(DeleteTemplateCategoryDocument, { category_id: a.id })).body.data!.delete_template_category).toBe(true);
    expect((await s.gql(TemplateByIdDocument, { template_id: t.id })).body.data!.template.category).toBeNull();
    expect(codeOf(await s.gql(DeleteTemplateCategoryDocument, { category_id: a.id }))).toBe('NOT_FOUND');
    expect(b.name).toBe('Beta');
  });

  it('names are required, at most 50 characters and unique in the account (not across accounts)', async () => {
    await s.gql(CreateTemplateCategoryDocument, { name: 'Unique' });
    const taken = await s.gql(CreateTemplateCategoryDocument, { name: 'Unique' });
    expect(taken.body.errors[0].extensions.errors).toEqual({ name: ['The name has already been taken.'] });
    const long = await s.gql(CreateTemplateCategoryDocument, { name: 'n'.repeat(51) });
    expect(long.body.errors[0].extensions.errors).toEqual({ name: ['The name may not be greater than 50 characters.'] });
    const blank = await s.gql(CreateTemplateCategoryDocument, { name: ' ' });
    expect(blank.body.errors[0].extensions.errors).toEqual({ name: ['The name field is required.'] });
    const acct = await createAccount(s, 'Cat other');
    const elsewhere = await s.gql(CreateTemplateCategoryDocument, { name: 'Unique' }, acct.token);
    expect(elsewhere.body.errors).toBeUndefined();
  });

  it('need templates_full', async () => {
    const token = await tokenWith(s, ['domains_full']);
    expect(codeOf(await s.gql(CreateTemplateCategoryDocument, { name: 'No' }, token))).toBe('FORBIDDEN');
    expect(codeOf(await s.gql(TemplateCategoriesDocument, {}, token))).toBe('FORBIDDEN');
  });

  it('have no /v1 routes', async () => {
    expect((await s.rest('GET', '/template-categories')).status).toBe(404);
  });
});
