import type { TestServer } from '../support/server.js';

export const LIST_KEYS = ['created_at', 'description', 'id', 'image_path', 'name', 'tags', 'type', 'updated_at', 'variables'];
export const SINGLE_KEYS = [...LIST_KEYS, 'category', 'domain', 'template_stats'].sort();
export const STATS = { total: 0, queued: 0, sent: 0, rejected: 0, delivered: 0, last_email_sent_at: null };
export const NOT_FOUND = { message: 'Resource not found.' };
export const invalid = (key: string, message: string) => ({
  message: 'The given data was invalid.',
  errors: { [key]: [message] },
});

/** A template through /v1 (admin token unless another is given); fails the test on anything but 201. */
export async function createTemplate(s: TestServer, body: Record<string, unknown> = {}, token?: string) {
  const res = await s.rest('POST', '/templates', { token, body: { html: '<p>Hi</p>', text: 'Hi', ...body } });
  if (res.status !== 201) throw new Error(`template create failed: ${res.status} ${res.text}`);
  return res.body.data as { id: string; name: string; [k: string]: unknown };
}

/** A template category through GraphQL (there is no /v1 route for categories). */
export async function createCategory(s: TestServer, name: string, token?: string): Promise<{ id: string; name: string }> {
  const res = await s.gql(
    'mutation($name: String!) { create_template_category(name: $name) { id name } }',
    { name },
    token,
  );
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data.create_template_category;
}
