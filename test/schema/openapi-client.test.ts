import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { seedDomain } from '../support/factories.js';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../support/server.js';
import { rootFieldRoles } from '../../src/graphql/auth.js';
import { SCOPES, WHOLE_ACCOUNT } from '../../src/core/scopes.js';

/**
 * The served /v1/openapi.json as a client generator meets it: openapi-typescript turns it into
 * `paths` types, a small client typed by them must type-check under strict options (and fail to
 * where the document's enums and required fields say it should), and then talk to the service.
 */

const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;
type Op = { operationId?: string; tags?: string[]; security?: { bearer?: string[] }[]; description?: string; requestBody?: any; parameters?: any[] };

let s: TestServer;
let doc: { tags: { name: string }[]; paths: Record<string, Record<string, Op>>; components: any };
let dir: string;
let domain: { id: string; name: string };

beforeAll(async () => {
  s = await startTestServer({ roles: ['api'] });
  domain = await seedDomain(s);
  doc = await (await fetch(`${s.url}/v1/openapi.json`)).json();
  dir = mkdtempSync(path.join(os.tmpdir(), 'pb-openapi-client-'));
});
afterAll(async () => {
  await s?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([p, ops]) => METHODS.filter((m) => ops[m]).map((m) => ({ label: `${m.toUpperCase()} ${p}`, op: ops[m] })));

describe('the OpenAPI document', () => {
  it('names every operation once, by its GraphQL root field, and tags it by resource', () => {
    const ops = operations();
    expect(ops.length).toBeGreaterThan(100);
    const ids = ops.map(({ op }) => op.operationId);
    expect(ids.filter((id) => typeof id !== 'string' || !/^[a-z][a-z0-9_]*$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/v1/domains'].get.operationId).toBe('domains');
    expect(doc.paths['/v1/domains'].post.operationId).toBe('create_domain');

    const listed = doc.tags.map((t) => t.name);
    expect(new Set(listed).size).toBe(listed.length);
    expect(ops.filter(({ op }) => op.tags?.length !== 1 || !listed.includes(op.tags[0])).map((o) => o.label)).toEqual([]);
    expect(listed).toEqual(expect.arrayContaining(['Tokens', 'Domains', 'Email', 'Activity', 'SMS messages', 'Audit events']));
    expect(doc.paths['/v1/messages'].get.tags).toEqual(['Messages']);
    expect(doc.paths['/v1/sms-activity'].get.tags).toEqual(['SMS activity']);
  });

  it('asks every operation for a bearer token with the scope its resolver declares', () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.bearer.description).toContain('`domains_read`');
    const wrong: string[] = [];
    for (const { label, op } of operations()) {
      const roles = rootFieldRoles(op.operationId!);
      // A public operation would have no roles and an empty requirement; /v1 has none today.
      const expected = roles === undefined ? [] : [{ bearer: roles.filter((r) => r !== WHOLE_ACCOUNT) }];
      if (JSON.stringify(op.security) !== JSON.stringify(expected)) wrong.push(`${label}: ${JSON.stringify(op.security)}`);
      if (roles?.some((r) => !r.startsWith('whole_') && !(SCOPES as readonly string[]).includes(r))) wrong.push(`${label}: unknown scope`);
      const refused = /limited to a domain is refused/.test(op.description ?? '');
      if (refused !== Boolean(roles?.includes(WHOLE_ACCOUNT))) wrong.push(`${label}: whole-account note ${refused}`);
    }
    expect(wrong).toEqual([]);
    expect(doc.paths['/v1/domains'].get.security).toEqual([{ bearer: ['domains_read'] }]);
    expect(doc.paths['/v1/sms'].post.security).toEqual([{ bearer: ['sms_full'] }]);
  });

  it('carries the validators\' rules on parameters and body fields', () => {
    const token = doc.paths['/v1/token'].post.requestBody.content['application/json'].schema;
    expect(token.properties.name).toMatchObject({ type: 'string', maxLength: 50 });
    expect(token.properties.scopes).toMatchObject({ type: 'array', items: { type: 'string', enum: [...SCOPES] } });
    expect(token.required).toEqual(['name', 'scopes']);
    const limit = doc.paths['/v1/domains'].get.parameters!.find((p) => p.name === 'limit');
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 10, maximum: 100, default: 25 } });
    const identity = doc.paths['/v1/identities'].post.requestBody.content['application/json'].schema;
    expect(identity.properties.email).toMatchObject({ format: 'email', maxLength: 320 });
    const list = doc.paths['/v1/email-verification'].post.requestBody.content['application/json'].schema;
    expect(list.properties.emails).toMatchObject({ minItems: 1, maxItems: 10_000, items: { maxLength: 320 } });
  });
});

describe('a client generated from it', () => {
  it('type-checks, refuses what the document forbids, and talks to the service', async () => {
    const started = Date.now();
    const types = astToString(await openapiTS(new URL(`${s.url}/v1/openapi.json`), { silent: true }));
    writeFileSync(path.join(dir, 'api.ts'), types);
    writeFileSync(path.join(dir, 'client.ts'), CLIENT);
    writeFileSync(path.join(dir, 'main.ts'), MAIN);
    writeFileSync(path.join(dir, 'refused.ts'), REFUSED);

    const files = ['api.ts', 'client.ts', 'main.ts', 'refused.ts'].map((f) => path.join(dir, f));
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      noUnusedLocals: true,
      exactOptionalPropertyTypes: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(problems).toEqual([]);

    // The checked client, as plain JavaScript, run by node against the service.
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
    for (const f of ['client', 'main']) {
      const source = ts.transpileModule(CLIENT_SOURCES[f], { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } });
      writeFileSync(path.join(dir, `${f}.js`), source.outputText);
    }
    writeFileSync(path.join(dir, 'run.js'), "import { run } from './main.js';\nconsole.log(JSON.stringify(await run(...process.argv.slice(2))));\n");
    const { stdout } = await promisify(execFile)(process.execPath, [path.join(dir, 'run.js'), s.url, ADMIN_TOKEN, domain.id, domain.name], {
      timeout: 30_000,
    });
    const out = JSON.parse(stdout);

    expect(out.domains).toMatchObject({ status: 200, page: 1 });
    expect(out.domains.names).toContain(domain.name);
    expect(out.token).toMatchObject({ status: 200, name: 'generated client', hasSecret: true });
    expect(out.tooLong).toEqual({ status: 422, errors: ['name'] });
    expect(out.sent.status).toBe(202);
    expect(out.sent.messageId).toEqual(expect.any(String));
    expect(out.activity).toMatchObject({ status: 200, page: 1 });
    expect(out.activity.types).toContain('queued');
    expect(out.notAllowed).toBe(403);
    process.stdout.write(`generated, checked and ran the client in ${Date.now() - started} ms\n`);
  }, 120_000);
});

/** A few lines of client over the generated `paths`: the request and answer types come from there. */
const CLIENT = `import type { paths } from './api.js';

type Method = 'get' | 'post' | 'put' | 'delete';
type Op<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : undefined;
export type Answer<P extends keyof paths, M extends Method, S extends number> = Op<P, M> extends { responses: infer R }
  ? S extends keyof R ? Json<R[S]> : never
  : never;
export type Body<P extends keyof paths, M extends Method> = Op<P, M> extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
export type Query<P extends keyof paths, M extends Method> = Op<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
export interface Reply<T> { status: number; headers: Headers; body: T }
/** The answer of an operation: its success body, or the error body of any other status. */
export type Result<P extends keyof paths, M extends Method, S extends number> =
  | (Reply<Answer<P, M, S>> & { ok: true })
  | (Reply<{ message: string; errors?: Record<string, string[]> }> & { ok: false });

export class Postbox {
  constructor(private readonly base: string, private readonly token: string) {}

  private async call(method: string, path: string, query?: object, body?: unknown): Promise<any> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) {
      if (Array.isArray(v)) for (const x of v) qs.append(k + '[]', String(x));
      else if (v !== undefined) qs.append(k, String(v));
    }
    const search = qs.toString();
    const res = await fetch(this.base + path + (search ? '?' + search : ''), {
      method,
      headers: { authorization: 'Bearer ' + this.token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    const isJson = res.headers.get('content-type')?.startsWith('application/json');
    return { ok: res.ok, status: res.status, headers: res.headers, body: text && isJson ? JSON.parse(text) : undefined };
  }

  domains(query: Query<'/v1/domains', 'get'> = {}): Promise<Result<'/v1/domains', 'get', 200>> {
    return this.call('GET', '/v1/domains', query);
  }
  createToken(body: Body<'/v1/token', 'post'>): Promise<Result<'/v1/token', 'post', 200>> {
    return this.call('POST', '/v1/token', undefined, body);
  }
  sendEmail(body: Body<'/v1/email', 'post'>): Promise<Result<'/v1/email', 'post', 202>> {
    return this.call('POST', '/v1/email', undefined, body);
  }
  activity(
    domainId: Op<'/v1/activity/{domain_id}', 'get'>['parameters']['path']['domain_id'],
    query: Query<'/v1/activity/{domain_id}', 'get'>,
  ): Promise<Result<'/v1/activity/{domain_id}', 'get', 200>> {
    return this.call('GET', '/v1/activity/' + encodeURIComponent(domainId), query);
  }
}
`;

/** Uses the answers by their generated types: a field that is not there would not compile. */
const MAIN = `import { Postbox } from './client.js';

export async function run(base: string, adminToken: string, domainId: string, domainName: string) {
  const admin = new Postbox(base, adminToken);
  const list = await admin.domains({ limit: 10, page: 1 });
  const domains = list.ok
    ? { status: list.status, page: list.body.meta.current_page, names: list.body.data.map((d) => d.name) }
    : { status: list.status, error: list.body.message };

  const created = await admin.createToken({ name: 'generated client', scopes: ['email_full', 'activity_read'] });
  const secret = created.ok ? created.body.data.accessToken : '';
  const token = { status: created.status, name: created.ok ? created.body.data.name : null, hasSecret: secret.length > 0 };
  const refused = await admin.createToken({ name: 'x'.repeat(51), scopes: ['email_full'] });
  const tooLong = { status: refused.status, errors: refused.ok ? [] : Object.keys(refused.body.errors ?? {}) };

  const sender = new Postbox(base, secret);
  const accepted = await sender.sendEmail({
    from: { email: 'hello@' + domainName, name: 'Generated client' },
    to: [{ email: 'someone@example.net' }],
    subject: 'From a generated client',
    text: 'Hello',
  });
  const sent = { status: accepted.status, messageId: accepted.headers.get('x-message-id') };

  const now = Math.floor(Date.now() / 1000);
  const entries = await sender.activity(domainId, { date_from: String(now - 3600), date_to: String(now + 60), event: ['queued', 'sent'] });
  const activity = entries.ok
    ? { status: entries.status, page: entries.body.meta.current_page, types: entries.body.data.map((a) => a.type) }
    : { status: entries.status, error: entries.body.message };

  // The new token has no domains scope.
  const notAllowed = (await sender.domains()).status;
  return { domains, token, tooLong, sent, activity, notAllowed };
}
`;

/** What the document forbids must not compile: each line below is an error the types must report. */
const REFUSED = `import { Postbox } from './client.js';

export function refused(pb: Postbox) {
  // @ts-expect-error: not a scope (the scopes enum)
  void pb.createToken({ name: 'x', scopes: ['everything'] });
  // @ts-expect-error: name is required
  void pb.createToken({ scopes: ['email_full'] });
  // @ts-expect-error: limit is a number
  void pb.domains({ limit: 'ten' });
  // @ts-expect-error: date_from and date_to are required
  void pb.activity('id', {});
  void pb.domains().then((r) => {
    // @ts-expect-error: a domain has no such field
    if (r.ok) return r.body.data[0]?.no_such_field;
    return undefined;
  });
}
`;

const CLIENT_SOURCES: Record<string, string> = { client: CLIENT, main: MAIN };
