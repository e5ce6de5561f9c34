import { startTestServer, type TestServer } from '../support/server.js';
import { SINGLE_KEYS, createCategory, createTemplate } from './helpers.js';

/**
 * A template keeps every category it is given, in order. /v1 answers SPEC.md's single
 * `category` (the first that still exists); GraphQL's `categories` lists them all.
 */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const read = async (id: string) => {
  const res = await s.rest('GET', `/templates/${id}`);
  expect(res.status).toBe(200);
  expect(Object.keys(res.body.data).sort()).toEqual(SINGLE_KEYS);
  return res.body.data;
};
const allOf = async (id: string) => {
  const res = await s.gql('query($id: ID!) { template(template_id: $id) { category { id name } categories { id name } } }', { id });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.template;
};
const deleteCategory = async (id: string) => {
  const res = await s.gql('mutation($id: ID!) { delete_template_category(category_id: $id) }', { id });
  expect(res.body.data.delete_template_category).toBe(true);
};

it('create, update and read keep both categories, in the order given', async () => {
  const [a, b, c] = [await createCategory(s, 'Cat A'), await createCategory(s, 'Cat B'), await createCategory(s, 'Cat C')];
  const t = await createTemplate(s, { categories: [a.id, b.id] });
  expect(t.category).toBeNull(); // the create answer leaves it null (SPEC.md)
  expect((await read(t.id)).category).toEqual(a);
  expect(await allOf(t.id)).toEqual({ category: a, categories: [a, b] });

  // The second category was kept: with the first gone, it is the template's category.
  await deleteCategory(a.id);
  expect((await read(t.id)).category).toEqual(b);
  expect((await allOf(t.id)).categories).toEqual([b]);

  const put = await s.rest('PUT', `/templates/${t.id}`, { body: { categories: [c.id, b.id, c.id] } });
  expect(put.status).toBe(200);
  expect(put.body.data.category).toEqual(c);
  expect(Object.keys(put.body.data)).not.toContain('categories');
  expect(await allOf(t.id)).toEqual({ category: c, categories: [c, b] });

  // An update that leaves categories out keeps them; an empty list clears them.
  expect((await s.rest('PUT', `/templates/${t.id}`, { body: { name: 'Renamed' } })).status).toBe(200);
  expect((await allOf(t.id)).categories).toEqual([c, b]);
  expect((await s.rest('PUT', `/templates/${t.id}`, { body: { categories: [] } })).body.data.category).toBeNull();
  expect(await allOf(t.id)).toEqual({ category: null, categories: [] });
});
