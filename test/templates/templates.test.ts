import { seedDomain } from '../support/factories.js';
import { ISO, PLAIN, startTestServer, type TestServer } from '../support/server.js';
import { LIST_KEYS, NOT_FOUND, SINGLE_KEYS, STATS, createCategory, createTemplate, invalid } from './helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

describe('POST /v1/templates', () => {
  it('answers 201 in the create shape: ISO timestamps, category and domain null', async () => {
    const domain = await seedDomain(s);
    const cat = await createCategory(s, 'Receipts');
    const res = await s.rest('POST', '/templates', {
      body: {
        name: 'Welcome',
        html: '<p>Hello {{ name }}</p>',
        text: 'Hello {{name}}, order {{ order_id }}',
        domain_id: domain.id,
        categories: [cat.id],
        tags: ['onboarding', 'a'],
        subject: 'Hi {{ name }}',
        from_email: 'hello@example.test',
        from_name: 'Hello',
      },
    });
    expect(res.status).toBe(201);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(SINGLE_KEYS);
    expect(d.created_at).toMatch(ISO);
    expect(d.updated_at).toMatch(ISO);
    expect(d).toMatchObject({
      name: 'Welcome',
      description: null,
      type: 'html',
      image_path: null,
      tags: ['onboarding', 'a'],
      variables: { name: null, order_id: null },
      category: null,
      domain: null,
      template_stats: STATS,
    });
  });

  it('defaults the name to "Template" and has null variables when there are none', async () => {
    const d = await createTemplate(s, { html: '<p>Plain</p>', text: 'Plain' });
    expect(d).toMatchObject({ name: 'Template', variables: null, tags: [] });
  });

  it('auto_generate makes the text from the html: tags gone, line breaks and link targets kept', async () => {
    const d = await createTemplate(s, {
      text: undefined,
      auto_generate: true,
      html: '<html><head><style>p{color:red}</style></head><body><h1>Hi {{ first }}</h1>\n<p>Line one<br>line   two</p><p>See <a href="https://example.test/x?a=1&amp;b=2">our site</a>.</p></body></html>',
    });
    expect(d.variables).toEqual({ first: null });
    const db = await import('pg');
    const c = new db.default.Client({ connectionString: s.dbUrl });
    await c.connect();
    const { rows } = await c.query('select text from templates where id = $1', [d.id]);
    await c.end();
    expect(rows[0].text).toBe('Hi {{ first }}\n\nLine one\nline two\n\nSee our site [https://example.test/x?a=1&b=2].');
  });

  it.each([
    [{ text: 'x' }, 'html', 'The html field is required.'],
    [{ html: '', text: 'x' }, 'html', 'The html field is required.'],
    [{ html: '<p>x</p>' }, 'text', 'The text field is required.'],
    [{ html: '<p>x</p>', auto_generate: false }, 'text', 'The text field is required.'],
    [{ html: 42, text: 'x' }, 'html', 'The html must be a string.'],
    [{ html: '<p>x</p>', text: 'x', name: 'n'.repeat(51) }, 'name', 'The name may not be greater than 50 characters.'],
    [{ html: '<p>x</p>', text: 'x', domain_id: 'nope' }, 'domain_id', 'The selected domain id is invalid.'],
    [{ html: '<p>x</p>', text: 'x', categories: ['nope'] }, 'categories.0', 'The selected categories.0 is invalid.'],
    [{ html: '<p>x</p>', text: 'x', tags: ['1', '2', '3', '4', '5', '6'] }, 'tags', 'The tags may not have more than 5 items.'],
    [{ html: '<p>x</p>', text: 'x', tags: ['ok', 't'.repeat(192)] }, 'tags.1', 'The tags.1 may not be greater than 191 characters.'],
    [{ html: '<p>x</p>', text: 'x', tags: 'one' }, 'tags', 'The tags must be an array.'],
    [{ html: '<p>x</p>', text: 'x', auto_generate: 'yes' }, 'auto_generate', 'The auto generate field must be true or false.'],
    [{ html: '<p>x</p>', text: 'x', subject: 's'.repeat(999) }, 'subject', 'The subject may not be greater than 998 characters.'],
    [{ html: '<p>x</p>', text: 'x', from_email: 'not-an-email' }, 'from_email', 'The from email must be a valid email address.'],
    [{ html: '<p>x</p>', text: 'x', from_name: 'f'.repeat(192) }, 'from_name', 'The from name may not be greater than 191 characters.'],
  ])('422 for %j', async (body, key, message) => {
    const res = await s.rest('POST', '/templates', { body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid(key, message));
  });

  it('422 on the index of each unknown category', async () => {
    const cat = await createCategory(s, 'Known');
    const res = await s.rest('POST', '/templates', { body: { html: '<p>x</p>', text: 'x', categories: [cat.id, 'zzz'] } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid('categories.1', 'The selected categories.1 is invalid.'));
  });
});

describe('GET /v1/templates', () => {
  it('answers the full pager with absolute links, list items with plain timestamps', async () => {
    for (let i = 0; i < 11; i++) await createTemplate(s, { name: `Paged ${i}` });
    const res = await s.rest('GET', '/templates?limit=10&page=2');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'links', 'meta']);
    const { meta, links, data } = res.body;
    expect(Object.keys(meta).sort()).toEqual(['current_page', 'from', 'last_page', 'links', 'path', 'per_page', 'to', 'total']);
    expect(meta).toMatchObject({ current_page: 2, per_page: 10, from: 11 });
    expect(meta.total).toBeGreaterThanOrEqual(11);
    expect(meta.path).toMatch(/^http:\/\/[^/?]+\/v1\/templates$/);
    expect(Object.keys(links).sort()).toEqual(['first', 'last', 'next', 'prev']);
    expect(links.first).toMatch(/^http:\/\/.+\/v1\/templates\?limit=10&page=1$/);
    expect(links.prev).toMatch(/page=1$/);
    expect(data.length).toBeGreaterThan(0);
    for (const t of data) {
      expect(Object.keys(t).sort()).toEqual(LIST_KEYS);
      expect(t.created_at).toMatch(PLAIN);
      expect(t.updated_at).toMatch(PLAIN);
      expect(t.type).toBe('html');
    }
  });

  it('answers a page past the end empty, with the total still counted', async () => {
    await createTemplate(s, { name: 'Past the end' });
    const first = await s.rest('GET', '/templates?limit=10');
    const { total, last_page } = first.body.meta;
    expect(total).toBeGreaterThan(0);
    const res = await s.rest('GET', `/templates?limit=10&page=${last_page + 3}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({ total, last_page, current_page: last_page + 3, from: null, to: null });
  });

  it('defaults to 25 per page, newest first', async () => {
    const newest = await createTemplate(s, { name: 'Newest' });
    const res = await s.rest('GET', '/templates');
    expect(res.body.meta.per_page).toBe(25);
    expect(res.body.data[0].id).toBe(newest.id);
  });

  it('filters by domain_id; an unknown domain is 404', async () => {
    const domain = await seedDomain(s);
    const mine = await createTemplate(s, { domain_id: domain.id });
    const res = await s.rest('GET', `/templates?domain_id=${domain.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.map((t: any) => t.id)).toEqual([mine.id]);
    const unknown = await s.rest('GET', '/templates?domain_id=nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(NOT_FOUND);
  });

  it.each([
    ['limit=9', 'limit', 'The limit must be at least 10.'],
    ['limit=101', 'limit', 'The limit may not be greater than 100.'],
    ['page=0', 'page', 'The page must be at least 1.'],
    ['page=x', 'page', 'The page must be an integer.'],
  ])('422 for %s', async (q, key, message) => {
    const res = await s.rest('GET', `/templates?${q}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid(key, message));
  });
});

describe('GET /v1/templates/{template_id}', () => {
  it('answers the single shape with category, domain (with totals) and stats, ISO timestamps', async () => {
    const domain = await seedDomain(s);
    const [first, second] = [await createCategory(s, 'First'), await createCategory(s, 'Second')];
    const t = await createTemplate(s, { domain_id: domain.id, categories: [first.id, second.id] });
    const res = await s.rest('GET', `/templates/${t.id}`);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(SINGLE_KEYS);
    expect(d.created_at).toMatch(ISO);
    expect(d.updated_at).toMatch(ISO);
    expect(d.category).toEqual({ id: first.id, name: 'First' });
    expect(Object.keys(d.domain).sort()).toEqual(['created_at', 'id', 'name', 'totals', 'updated_at']);
    expect(d.domain).toMatchObject({ id: domain.id, name: domain.name });
    expect(d.domain.created_at).toMatch(ISO);
    expect(d.domain.totals).toEqual({ hard_bounced: 0, soft_bounced: 0, sent: 0, delivered: 0 });
    expect(d.template_stats).toEqual(STATS);
  });

  it('has category and domain null when it has none', async () => {
    const t = await createTemplate(s);
    const res = await s.rest('GET', `/templates/${t.id}`);
    expect(res.body.data).toMatchObject({ category: null, domain: null });
  });

  it('404 when unknown', async () => {
    const res = await s.rest('GET', '/templates/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });
});

describe('PUT /v1/templates/{template_id}', () => {
  it('changes the given fields, recomputes variables, answers the single shape', async () => {
    const domain = await seedDomain(s);
    const cat = await createCategory(s, 'Updated');
    const t = await createTemplate(s, { name: 'Before', html: '<p>{{ a }}</p>', text: '{{ a }}', tags: ['x'] });
    expect(t.variables).toEqual({ a: null });
    const res = await s.rest('PUT', `/templates/${t.id}`, {
      body: { name: 'After', html: '<p>{{ b }}</p>', text: '{{ b }} {{ c }}', tags: ['y', 'z'], domain_id: domain.id, categories: [cat.id] },
    });
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(Object.keys(d).sort()).toEqual(SINGLE_KEYS);
    expect(d.created_at).toMatch(ISO);
    expect(d).toMatchObject({ name: 'After', tags: ['y', 'z'], variables: { b: null, c: null }, category: { id: cat.id, name: 'Updated' } });
    expect(d.domain).toMatchObject({ id: domain.id });
    // Fields left out keep their value.
    const again = await s.rest('PUT', `/templates/${t.id}`, { body: { subject: 'Dear {{ who }}' } });
    expect(again.body.data).toMatchObject({ name: 'After', tags: ['y', 'z'], variables: { who: null, b: null, c: null } });
  });

  it('auto_generate on update regenerates the text from the html', async () => {
    const t = await createTemplate(s, { html: '<p>One</p>', text: 'One' });
    const res = await s.rest('PUT', `/templates/${t.id}`, { body: { html: '<p>Two {{ v }}</p>', auto_generate: true } });
    expect(res.status).toBe(200);
    expect(res.body.data.variables).toEqual({ v: null });
  });

  it.each([
    [{ name: 'n'.repeat(51) }, 'name', 'The name may not be greater than 50 characters.'],
    [{ name: '' }, 'name', 'The name field is required.'],
    [{ html: '' }, 'html', 'The html field is required.'],
    [{ text: '' }, 'text', 'The text field is required.'],
    [{ tags: ['1', '2', '3', '4', '5', '6'] }, 'tags', 'The tags may not have more than 5 items.'],
    [{ tags: ['t'.repeat(192)] }, 'tags.0', 'The tags.0 may not be greater than 191 characters.'],
    [{ domain_id: 'nope' }, 'domain_id', 'The selected domain id is invalid.'],
    [{ categories: ['nope'] }, 'categories.0', 'The selected categories.0 is invalid.'],
    [{ from_email: 'bad' }, 'from_email', 'The from email must be a valid email address.'],
    [{ subject: 's'.repeat(999) }, 'subject', 'The subject may not be greater than 998 characters.'],
  ])('422 for %j', async (body, key, message) => {
    const t = await createTemplate(s);
    const res = await s.rest('PUT', `/templates/${t.id}`, { body });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid(key, message));
  });

  it('404 when unknown', async () => {
    const res = await s.rest('PUT', '/templates/nope', { body: { name: 'x' } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });
});

describe('DELETE /v1/templates/{template_id}', () => {
  it('answers an empty 204, then 404', async () => {
    const t = await createTemplate(s);
    const res = await s.rest('DELETE', `/templates/${t.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect((await s.rest('GET', `/templates/${t.id}`)).status).toBe(404);
    const again = await s.rest('DELETE', `/templates/${t.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(NOT_FOUND);
  });
});
