import { Kind, OperationTypeNode, getNamedType, isListType, isNonNullType, print, type GraphQLField, type GraphQLInputType, type GraphQLSchema } from 'graphql';
import { buildOperationNodeForField } from '@graphql-tools/utils';
import { createPubSub } from '@graphql-yoga/subscription';
import { buildAppSchema } from '../../src/graphql/schema.js';
import { WHOLE_ACCOUNT_ONLY, rootFieldRoles } from '../../src/graphql/auth.js';
import { runTick } from '../../src/engines/webhooks/webhook.worker.js';
import { bulkJob } from '../../src/modules/bulk/bulk.job.js';
import { bulkWorker } from '../../src/modules/bulk/bulk.worker.js';
import { newId } from '../../src/lib/ids.js';
import { routeTableOf } from '../../rest-mapping/index.js';
import { resolvers, rest as restContract } from '../../src/modules/index.js';

const routeTable = routeTableOf(restContract);
import { ADMIN_TOKEN, type HttpAnswer } from '../support/server.js';
import { DataWatch, changedTables } from '../support/sweep-check.js';
import { subscribe } from '../support/sse.js';
import { gqlAs, type Session } from '../auth/helpers.js';
import { reportXml } from '../dmarc/reports-support.js';
import { NOT_FOUND, buildTenantFixture, closeTenantFixture, settle, until, type TenantFixture } from '../support/tenant-fixture.js';
import { WHOLE_ACCOUNT } from '../../src/core/scopes.js';

/**
 * The tenant matrix: every /v1 route of the route table and every root field of the schema, sent
 * by three actors, each request aimed at the victim (the admin account of the test server):
 *
 * - stranger: a second account's full-scope token. The victim's ids answer like missing ones:
 *   404, or a 422 naming only the field that carried the id.
 * - otherDomain: a token of the victim account with every `_full` scope, limited to another
 *   domain, aimed at the rows of the victim's domain: 403 or 404 (or that 422).
 * - noDomain: the same token aimed at the victim's rows of no domain (the admin token, an
 *   account-wide template, blocklist entry, IP monitor, SMS webhook row, bulk send, people of
 *   every domain): 403 or 404; and the account-wide services (SMS, email verification, template
 *   categories) are a 403 for any domain-limited token before an argument is read.
 *
 * Each refusal is in the documented shape, shows none of the victim's ids, names or addresses,
 * and leaves every table as it was (md5 of every row, test/support/sweep-check.ts). A list that
 * names nothing of the victim may answer, but without the victim's rows; a list filtered by a
 * victim id may answer only as it does for a missing id. Subscriptions aimed at the victim are
 * refused or hear nothing. Positive controls: the victim's own token reaches the same targets,
 * hears the same events, and its lists do show the data the actors must not see.
 *
 * Within one account, members and tokens with each other kind of limit (permissions, templates)
 * are the actors of test/users/grant-matrix.test.ts, which tries every way of granting more.
 */
type Actor = 'stranger' | 'otherDomain' | 'noDomain';
const ACTORS: Actor[] = ['stranger', 'otherDomain', 'noDomain'];
/**
 * Who sends the requests of the list, /v1 and GraphQL sweeps: the token actors, and console
 * sessions aimed and judged like one of them (kindOf): limitedUser, an admin user limited to
 * attackerDomain, and severalUser, one limited to attackerDomain and another domain, like
 * otherDomain; strangerUser, an admin user of the stranger account, like stranger.
 */
type Caller = Actor | 'limitedUser' | 'severalUser' | 'strangerUser';
const CALLERS: Caller[] = [...ACTORS, 'limitedUser', 'severalUser', 'strangerUser'];
const kindOf = (c: Caller): Actor => (c === 'strangerUser' ? 'stranger' : c === 'limitedUser' || c === 'severalUser' ? 'otherDomain' : c);
const SESSIONS: Partial<Record<Caller, () => Session>> = {
  limitedUser: () => f.sessions.limited,
  severalUser: () => f.sessions.several,
  strangerUser: () => f.sessions.stranger,
};
const sessionOf = (c: Caller) => SESSIONS[c]?.() ?? null;
const MISSING = 'zzzzzzzzmissing0';

let f: TenantFixture;
let watch: DataWatch;
let schema: GraphQLSchema;
beforeAll(async () => {
  f = await buildTenantFixture();
  schema = await buildAppSchema(createPubSub() as never, resolvers);
  // A session's last_seen_at is stamped once a minute, whatever the request.
  watch = new DataWatch(f.s.dbUrl, { user_sessions: ['last_seen_at'] });
  await watch.start();
  // What the fixture set going has stopped: from here on only requests change data.
  await settle(() => watch.checksum());
}, 90_000);
afterAll(async () => {
  if (process.env.TENANT_MATRIX_TRACE) process.stdout.write(`${JSON.stringify(outcomes, null, 1)}\n`);
  await watch?.close();
  await closeTenantFixture(f);
});

const tokenOf = (actor: Actor) => (actor === 'stranger' ? f.stranger.token : f.limited.token);
const secretsOf = (actor: Actor) => (actor === 'stranger' ? f.secrets.stranger : f.secrets.limited);
const leaked = (actor: Actor, text: string) => Object.entries(secretsOf(actor)).filter(([x]) => text.includes(x)).map(([x, what]) => `${x} (${what})`);
const trace = (line: string) => process.env.TENANT_MATRIX_TRACE && process.stdout.write(`${line}\n`);

/** The victim's values an actor aims at: the domain's rows, the rows of no domain, or either (the stranger). */
function mapOf(actor: Actor | 'any'): Record<string, string | undefined> {
  if (actor === 'otherDomain') return { ...f.inDomain };
  if (actor === 'noDomain') return { ...f.noDomain };
  return { ...f.noDomain, ...f.inDomain };
}

const SUPPRESSION_LIST: Record<string, string> = {
  delete_from_blocklist: 'blocklist',
  delete_hard_bounces: 'hard-bounces',
  delete_spam_complaints: 'spam-complaints',
  delete_unsubscribes: 'unsubscribes',
  delete_on_hold_list: 'on-hold-list',
};

/**
 * The victim's value for one argument of one root field, as `actor` aims it; undefined when the
 * victim has no such target for this actor. The same name means different things on different
 * operations (monitor_id, message_id, email, webhook_id), so some are chosen by field.
 */
function victimValue(field: string, arg: string, actor: Actor | 'any'): unknown {
  const m = mapOf(actor);
  const wideOnly = actor === 'noDomain';
  switch (arg) {
    case 'monitor_id':
      return field.includes('dmarc') ? m.dmarc_monitor_id : m.blocklist_monitor_id;
    case 'message_id':
      return /message_schedule/.test(field) ? m.scheduled_message_id : m.message_id;
    case 'email_verification_id':
      return field === 'async_email_verification' ? m.async_verification_id : m.verification_list_id;
    case 'webhook_id':
      // An SMS webhook is a row of the webhooks table too, of no domain.
      return wideOnly ? m.sms_webhook_id : m.webhook_id;
    case 'email':
      // The identity's address on the by-email operations; elsewhere `email` is a new address.
      return /sender_identity_by_email/.test(field) ? m.email : undefined;
    case 'ids': {
      const list = SUPPRESSION_LIST[field];
      if (!list) return undefined;
      if (wideOnly) return list === 'blocklist' ? [f.wideBlocklistId] : undefined;
      return [f.suppressions[list]];
    }
    case 'domains':
      return m.domain_id ? [m.domain_id] : undefined;
    case 'templates':
      return m.template_id ? [m.template_id] : undefined;
    case 'template_id':
    case 'template':
      return m.template_id;
    case 'language':
      // The victim's templates each have a `de` translation.
      return field.includes('template_translation') && m.template_id ? 'de' : undefined;
    case 'from':
      if (field === 'send_email') return m.domain_id ? { email: m.email } : undefined;
      if (field === 'send_sms') return m.telephone_number;
      return undefined;
    case 'emails':
      if (field !== 'send_bulk_email') return undefined;
      if (m.domain_id) return [{ from: { email: m.email }, to: [{ email: 'crossing@example.org' }], subject: 'crossing', text: 'x' }];
      return [{ from: { email: `x@${f.attackerDomain.name}` }, to: [{ email: 'crossing@example.org' }], subject: 'crossing', template_id: m.template_id }];
    case 'name':
      return field === 'create_domain' && m.domain_id ? f.victimDomain.name : undefined;
    case 'address':
      return field === 'create_blocklist_monitor' ? m.address : undefined;
    case 'report':
      return field === 'upload_dmarc_report' && m.domain_id ? reportXml('outlook', f.victimDomain.name) : undefined;
    case 'recipient_id':
      // recipient_id[] of analytics is a filter documented as not implemented.
      return field.startsWith('analytics_') ? undefined : m.recipient_id;
    case 'domain_id':
    case 'token_id':
    case 'identity_id':
    case 'smtp_user_id':
    case 'user_id':
    case 'invite_id':
    case 'bulk_email_id':
    case 'email_id':
    case 'activity_id':
    case 'inbound_id':
    case 'ip':
    case 'sms_number_id':
    case 'sms_message_id':
    case 'sms_recipient_id':
    case 'sms_webhook_id':
    case 'sms_inbound_id':
    case 'delivery_id':
    case 'mail_id':
    case 'category_id':
    case 'account_id':
      return m[arg];
    default:
      return undefined;
  }
}

/** Well-formed arguments that carry nothing of the victim (wire names), so that only the victim's values can refuse a call. */
const day = 86_400;
const since = Math.floor(Date.now() / 1000) - 3 * day;
let seq = 0;
const VALID: Record<string, (actor?: Actor) => Record<string, unknown>> = {
  create_token: () => ({ name: 'crossing', scopes: ['email_full'] }),
  update_token: () => ({ name: 'taken over' }),
  update_token_settings: () => ({ status: 'pause' }),
  update_domain_settings: () => ({ send_paused: true }),
  create_sender_identity: () => ({ name: 'Crossing', email: `crossing-${f.tag}@${f.victimDomain.name}` }),
  update_sender_identity: () => ({ name: 'Crossing' }),
  update_sender_identity_by_email: () => ({ name: 'Crossing' }),
  create_smtp_user: () => ({ name: 'crossing' }),
  update_smtp_user: () => ({ name: 'crossing' }),
  invite_user: () => ({ email: `crossing-${f.tag}-${++seq}@example.test`, role: 'manager' }),
  update_user: () => ({ role: 'manager' }),
  create_template: () => ({ name: 'crossing', html: '<p>x</p>', text: 'x' }),
  update_template: () => ({ name: 'crossing' }),
  create_template_translation: () => ({ html: '<p>crossing</p>', text: 'crossing' }),
  update_template_translation: () => ({ html: '<p>crossing</p>' }),
  add_to_blocklist: () => ({ recipients: ['crossing@example.org'] }),
  add_hard_bounces: () => ({ recipients: ['crossing@example.org'] }),
  add_spam_complaints: () => ({ recipients: ['crossing@example.org'] }),
  add_unsubscribes: () => ({ recipients: ['crossing@example.org'] }),
  add_on_hold_list: () => ({ recipients: ['crossing@example.org'] }),
  // The sender is on the caller's own domain, so that only the victim's values can refuse the send.
  send_email: (actor) => ({ from: { email: `crossing@${actor === 'stranger' ? f.stranger.domain.name : f.attackerDomain.name}` }, to: [{ email: 'crossing@example.org' }], subject: 'crossing', text: 'x' }),
  activities: () => ({ date_from: String(since), date_to: String(since + 4 * day) }),
  analytics_date: () => ({ date_from: since, date_to: since + 4 * day, group_by: 'days', event: ['sent'] }),
  analytics_country: () => ({ date_from: since, date_to: since + 4 * day }),
  analytics_ua_name: () => ({ date_from: since, date_to: since + 4 * day }),
  analytics_ua_type: () => ({ date_from: since, date_to: since + 4 * day }),
  create_webhook: () => ({ url: f.receiver.url('/crossing'), name: 'crossing', events: ['activity.sent'] }),
  update_webhook: () => ({ name: 'crossing' }),
  replay_webhook: () => ({ since: new Date(Date.now() - day * 1000).toISOString() }),
  create_inbound: () => ({ name: 'crossing', domain_enabled: false, forwards: [{ type: 'webhook', value: f.receiver.url('/crossing-in') }] }),
  update_inbound: () => ({ name: 'crossing' }),
  verify_email: () => ({ email: 'crossing@example.org' }),
  verify_email_async: () => ({ email: 'crossing@example.org' }),
  create_email_verification_list: () => ({ name: 'crossing', emails: ['crossing@example.org'] }),
  email_verification_list: () => ({ detailed: false }),
  add_email_verification_list_emails: () => ({ emails: ['crossing@example.org'] }),
  create_blocklist_monitor: () => ({ name: 'crossing' }),
  update_blocklist_monitor: () => ({ name: 'crossing' }),
  update_dmarc_monitor: () => ({ wanted_dmarc_record: 'v=DMARC1; p=reject' }),
  dmarc_report_sources: () => ({ date_from: '2026-10-25', date_to: new Date().toISOString().slice(0, 10) }),
  update_sms_number: () => ({ paused: true }),
  send_sms: () => ({ to: ['+15550000001'], text: 'crossing' }),
  update_sms_recipient: () => ({ status: 'opt_out' }),
  create_sms_webhook: () => ({ url: f.receiver.url('/crossing-sms'), name: 'crossing', events: ['sms.sent'] }),
  update_sms_webhook: () => ({ name: 'crossing' }),
  create_sms_inbound: () => ({ name: 'crossing', forward_url: 'https://hooks.example.com/crossing' }),
  update_sms_inbound: () => ({ name: 'crossing' }),
  simulate_sms_inbound: () => ({ from: '+15550000003', text: 'crossing' }),
  create_template_category: () => ({ name: 'crossing' }),
  operator_create_account: () => ({ name: 'crossing' }),
  operator_set_plan: () => ({ plan: 'professional' }),
  operator_add_verification_credits: () => ({ credits: 5 }),
  operator_assign_sms_number: () => ({ telephone_number: '+15550000002' }),
  operator_captured_mail: () => ({ limit: 100 }),
  operator_start_maintenance: () => ({ note: 'crossing' }),
};

/** Whether an operation is over data of no domain (SMS, verification, categories): 403 for any domain-limited token. */
const wholeAccount = (field: string) => (rootFieldRoles(field) ?? []).includes(WHOLE_ACCOUNT);

/** A person of every domain may be read by a domain-limited token (src/modules/users/access.ts), not changed. */
const READ_BY_RULE = new Set(['user', 'invite']);

interface Target {
  /** Wire-named arguments (query string for GET, JSON body otherwise; GraphQL variables). */
  args: Record<string, unknown>;
  /** Path params filled (/v1). */
  path: Record<string, string>;
  /** Argument names that carry a victim value (a 422 may name only these). */
  carriers: string[];
  /** Why this actor has nothing of the victim to aim at here. */
  skip?: string;
}

/**
 * Aims one operation at the victim: `required` (path params, or the non-null id arguments on
 * GraphQL) must all get a victim value or the pair is skipped; every other argument that can
 * carry a victim value gets one; the rest comes from VALID.
 */
function aim(field: string, argNames: string[], required: string[], actor: Actor): Target {
  // A domain-limited token is refused account-wide services whatever it names: aim at all of the victim's.
  const as: Actor | 'any' = actor !== 'stranger' && wholeAccount(field) ? 'any' : actor;
  const args: Record<string, unknown> = { ...(VALID[field]?.(actor) ?? {}) };
  const path: Record<string, string> = {};
  const carriers: string[] = [];
  if (actor === 'noDomain' && READ_BY_RULE.has(field)) {
    return { args, path, carriers, skip: 'a person of every domain may be read by a domain-limited token (users/access.ts)' };
  }
  for (const p of required) {
    const v = victimValue(field, p, as);
    if (v === undefined) return { args, path, carriers, skip: `no ${p} of the victim for ${actor}` };
    path[p] = String(v);
    carriers.push(p);
  }
  for (const a of argNames) {
    if (required.includes(a)) continue;
    const v = victimValue(field, a, as);
    if (v === undefined) continue;
    args[a] = v;
    carriers.push(a);
  }
  // The new identity's address is on the victim's domain too; a send's sender is `from.email`.
  if (field === 'create_sender_identity' && carriers.length) carriers.push('email');
  if (field === 'send_email' && carriers.includes('from')) carriers.push('from.email');
  return { args, path, carriers };
}

/**
 * Operations where one victim value could hide another (a refused domain answers before the
 * templates are looked at): besides the request with all of them, one request per value. Changes
 * that can point a row at the victim's (a user's templates or domains, a template's domain) are
 * also sent through the caller's own row, so that only the victim's value can refuse them.
 */
const SPLIT = new Set(['invite_user', 'update_user', 'update_template', 'send_email', 'emails']);
const OWN: Record<string, 'user_id' | 'template_id'> = { update_user: 'user_id', update_template: 'template_id' };
const ownOf = (actor: Actor) =>
  actor === 'stranger' ? { template_id: f.stranger.templateId, user_id: undefined } : { template_id: f.limited.templateId, user_id: f.limited.userId };
function variants(field: string, required: string[], t: Target, actor: Actor): Target[] {
  if (!SPLIT.has(field)) return [t];
  const optional = t.carriers.filter((c) => !required.includes(c) && c in t.args);
  const own = OWN[field] && ownOf(actor)[OWN[field]];
  if ((OWN[field] && !own) || (!own && optional.length < 2)) return [t];
  return [
    t,
    ...optional.map((c) => ({
      args: { ...(VALID[field]?.(actor) ?? {}), [c]: t.args[c] },
      path: own ? { ...t.path, [OWN[field]]: own } : t.path,
      carriers: c === 'from' ? ['from', 'from.email'] : [c],
    })),
  ];
}

const isTargeted = (field: string, t: Target, actor: Actor) => t.carriers.length > 0 || (actor !== 'stranger' && wholeAccount(field));

function queryString(args: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(args)) {
    if (Array.isArray(v)) for (const x of v) q.append(`${k}[]`, String(x));
    else q.append(k, String(v));
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** What is wrong with the answer to a request aimed at the victim, or null: the refusals of the security model, in the shapes of SPEC.md "Errors". */
function refusalProblem(actor: Actor, field: string, t: Target, a: HttpAnswer): string | null {
  if (actor !== 'stranger' && wholeAccount(field)) {
    return a.status === 403 && JSON.stringify(a.body) === JSON.stringify({ message: WHOLE_ACCOUNT_ONLY }) ? null : 'expected the whole-account 403';
  }
  // Another account's ids answer like missing ones: a 403 would say they exist.
  const allowed = actor === 'stranger' ? [404, 422] : [403, 404, 422];
  if (!allowed.includes(a.status)) return `status ${a.status}, expected ${allowed.join('/')}`;
  if (a.status === 404 && JSON.stringify(a.body) !== JSON.stringify(NOT_FOUND)) return `404 body ${a.text.slice(0, 200)}`;
  if (a.status === 403 && (typeof a.body?.message !== 'string' || Object.keys(a.body).length !== 1)) return `403 body ${a.text.slice(0, 200)}`;
  if (a.status === 422) {
    const errors = a.body?.errors;
    if (a.body?.message !== 'The given data was invalid.' || !errors || typeof errors !== 'object') return `422 body ${a.text.slice(0, 200)}`;
    return fieldsProblem(Object.keys(errors), t);
  }
  return null;
}

/** A validation error may name only fields that carried the victim's values (`ids.0` is `ids`, `emails.0.from.email` is `emails`). */
function fieldsProblem(named: string[], t: Target): string | null {
  const base = named.map((k) => k.replace(/^emails\.\d+\..*$/, 'emails').replace(/\.\d+$/, ''));
  const other = base.filter((k) => !t.carriers.includes(k));
  return !base.length || other.length ? `validation error names ${named.join(', ')}, not only ${t.carriers.join(', ')}` : null;
}

/**
 * Where the victim has nothing for an actor to aim at. The matrix fails when this changes, so that
 * a new route or argument is aimed at the victim or named here, never forgotten.
 */
const NO_TARGET: Record<Actor, Record<string, string[]>> = {
  stranger: {
    'a change that names nothing of the victim (the caller\'s own checks or category)': [
      'Mutation.verify_email', 'Mutation.verify_email_async', 'Mutation.create_email_verification_list', 'Mutation.create_template_category',
    ],
  },
  otherDomain: {},
  noDomain: {
    'rows that always belong to a domain: none is of no domain': [
      'Query.domain', 'Query.domain_dns_records', 'Query.domain_recipients', 'Mutation.update_domain_settings', 'Mutation.delete_domain',
      'Mutation.verify_domain', 'Query.sender_identity', 'Query.sender_identity_by_email', 'Mutation.update_sender_identity',
      'Mutation.update_sender_identity_by_email', 'Mutation.delete_sender_identity', 'Mutation.delete_sender_identity_by_email',
      'Mutation.resend_sender_identity', 'Query.smtp_users', 'Query.smtp_user', 'Mutation.create_smtp_user', 'Mutation.update_smtp_user',
      'Mutation.delete_smtp_user', 'Query.recipient', 'Mutation.delete_recipient', 'Query.email', 'Query.message', 'Query.message_schedule',
      'Mutation.delete_message_schedule', 'Query.activities', 'Query.activity', 'Query.inbound', 'Mutation.update_inbound', 'Mutation.delete_inbound',
      'Query.dmarc_report', 'Query.dmarc_ip_report', 'Query.dmarc_report_sources', 'Mutation.update_dmarc_monitor', 'Mutation.delete_dmarc_monitor',
      'Mutation.add_dmarc_favorite', 'Mutation.remove_dmarc_favorite', 'Mutation.upload_dmarc_report',
      'Query.webhook_delivery', 'Mutation.retry_webhook_delivery',
    ],
    'a change that names nothing of the victim (it makes the caller\'s own, in its domain; lists other than the blocklist have no account-wide entries)': [
      'Mutation.create_token', 'Mutation.create_domain', 'Mutation.create_sender_identity', 'Mutation.create_template', 'Mutation.add_to_blocklist',
      'Mutation.add_hard_bounces', 'Mutation.add_spam_complaints', 'Mutation.add_unsubscribes', 'Mutation.add_on_hold_list',
      'Mutation.delete_hard_bounces', 'Mutation.delete_spam_complaints', 'Mutation.delete_unsubscribes', 'Mutation.delete_on_hold_list',
      'Mutation.create_webhook', 'Mutation.create_inbound', 'Mutation.create_dmarc_monitor',
    ],
    'a person of every domain may be read by a domain-limited token (src/modules/users/access.ts); changing one is aimed at': ['Query.user', 'Query.invite'],
  },
};
/** Lists that cannot be asked without naming something: asked with the victim's value instead. */
const LIST_NEEDS_TARGET = ['Query.webhooks', 'Query.sms_webhooks'];
const skipped: Record<Actor, Set<string>> = { stranger: new Set(), otherDomain: new Set(), noDomain: new Set() };
const unexpectedSkips = (actor: Actor) => [...skipped[actor]].filter((k) => !Object.values(NO_TARGET[actor]).flat().includes(k));

interface Outcome {
  /** Requests aimed at the victim. */
  cases: number;
  /** Lists asked without any victim value. */
  lists: number;
  skips: string[];
  crossings: string[];
}
const outcomes: Record<string, Outcome> = {};
const outcome = (name: string) => (outcomes[name] ??= { cases: 0, lists: 0, skips: [], crossings: [] });

/** Sends, and says which tables the request changed. */
async function watched<T>(send: () => Promise<T>): Promise<{ answer: T; changed: string[] }> {
  const before = await watch.checksum();
  const answer = await send();
  return { answer, changed: changedTables(before, await watch.checksum()) };
}

/**
 * Checksums every table around a run of requests rather than around each one: the actors'
 * requests are expected to change nothing, so a run that changed nothing clears all of its
 * requests at once. A run that changed data is reported against each of its requests (sending
 * them again would not say which: the first may have changed what the next finds; trace with
 * TENANT_MATRIX_TRACE and a RUN of 1 to find it). A request that may rightly change data (a bulk
 * send answered 202) is watched on its own, outside any run.
 */
class WatchedRun {
  static readonly RUN = 20;
  private before: Record<string, string> | null = null;
  private readonly verdicts: ((changed: string[]) => void)[] = [];

  async send<T>(request: () => Promise<T>): Promise<T> {
    this.before ??= await watch.checksum();
    return request();
  }

  /** What to report of the request just sent, once the run knows what changed. */
  async judge(verdict: (changed: string[]) => void): Promise<void> {
    this.verdicts.push(verdict);
    if (this.verdicts.length >= WatchedRun.RUN) await this.end();
  }

  async end(): Promise<void> {
    if (!this.before) return;
    const changed = changedTables(this.before, await watch.checksum());
    for (const verdict of this.verdicts.splice(0)) verdict(changed);
    this.before = null;
  }
}

/** `who`: an actor, or a token (the victim's own, for the positive controls). */
function rest(method: string, path: string, who: Caller | { token: string }, args: Record<string, unknown>, arrayBody?: string) {
  const viaQuery = method === 'GET';
  const body = viaQuery ? undefined : arrayBody ? args[arrayBody] : Object.keys(args).length ? args : undefined;
  const session = typeof who === 'string' ? sessionOf(who) : null;
  // A session sends its cookie and CSRF token (on every method: a read ignores it), no bearer token.
  const token = typeof who === 'string' ? tokenOf(kindOf(who)) : who.token;
  const auth = session ? { token: null, headers: { cookie: session.cookie, 'x-csrf-token': session.csrf } } : { token };
  return f.s.rest(method, `${path}${viaQuery ? queryString(args) : ''}`, { ...auth, body });
}

function gqlBy(who: Caller, query: string, variables: Record<string, unknown>) {
  const session = sessionOf(who);
  return session ? gqlAs(f.s, session, query, variables) : f.s.gql(query, variables, tokenOf(kindOf(who)));
}

const routes = Object.entries(routeTable).map(([key, spec]) => ({
  key,
  field: key.split('.')[1],
  spec,
  params: [...spec.path.matchAll(/:([a-z_]+)/g)].map((m) => m[1]),
}));
const fillPath = (path: string, values: Record<string, string>) => path.replace(/:([a-z_]+)/g, (_m, p) => encodeURIComponent(values[p]));

function rootField(key: string): GraphQLField<unknown, unknown> {
  const [op, name] = key.split('.');
  const root = op === 'Query' ? schema.getQueryType()! : op === 'Mutation' ? schema.getMutationType()! : schema.getSubscriptionType()!;
  return root.getFields()[name];
}

/** Required arguments a list cannot be asked without (besides the pager). */
const requiredArgs = (key: string, given: Record<string, unknown>) =>
  rootField(key).args.filter((a) => isNonNullType(a.type) && !(a.name in given) && a.defaultValue === undefined && !['page', 'limit'].includes(a.name)).map((a) => a.name);

/**
 * The bulk send validates in its job (COMPAT.md "Bulk email"), so it is accepted first: it must
 * then end with every message refused and nothing sent. The job is run here by hand (workers are off).
 */
async function bulkProblem(id: string | undefined): Promise<string | null> {
  if (!id) return 'no bulk_email_id';
  const batch = await f.s.app.services.boss.fetch(bulkJob.name, { batchSize: 10 });
  for (const job of batch ?? []) {
    await bulkWorker.run(job.data, f.s.app.services, { id: job.id, retryCount: 0, retryLimit: 0 });
    await f.s.app.services.boss.complete(bulkJob.name, job.id);
  }
  const { rows } = await f.db.query('select state, validation_errors, messages_id from bulk_emails where id = $1', [id]);
  const row = rows[0];
  if (!row || row.state !== 'completed' || (row.messages_id ?? []).length || !Object.keys(row.validation_errors ?? {}).length) {
    return `bulk send ${JSON.stringify(row)}`;
  }
  return null;
}

/** The caller's own bulk row is all an accepted bulk send may store (and the job's own bookkeeping). */
const BULK_TABLES = ['bulk_emails', 'audit_events'];

/** A value for an argument of a type, when nothing else gives one (auth-matrix.test.ts). */
function dummy(type: GraphQLInputType, name = ''): unknown {
  if (isNonNullType(type)) return dummy(type.ofType, name);
  if (isListType(type)) return [dummy(type.ofType, name)];
  const named = getNamedType(type) as any;
  if (named.getFields) {
    return Object.fromEntries(
      Object.values(named.getFields() as Record<string, any>).filter((x) => isNonNullType(x.type)).map((x) => [x.name, dummy(x.type, x.name)]),
    );
  }
  if (named.getValues) return named.getValues()[0].value;
  if (named.name === 'JSONObject') return {};
  if (named.name === 'Int') return name === 'page' ? 1 : name === 'limit' ? 25 : 10;
  return ({ Float: 1, Boolean: true } as Record<string, unknown>)[named.name] ?? MISSING;
}

/** A wire value as the argument's GraphQL type wants it (query strings are strings; Int and String! differ). */
function coerce(type: GraphQLInputType, v: unknown): unknown {
  const named = getNamedType(type).name;
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return (Array.isArray(v) ? v : [v]).map((x) => coerce(inner.ofType, x));
  if (named === 'Int' || named === 'Float') return Number(v);
  if ((named === 'String' || named === 'ID') && typeof v === 'number') return String(v);
  return v;
}

/** Root fields as GraphQL sees them, with the non-null id arguments that name their target. */
function gqlFields(kind: 'query' | 'mutation') {
  const root = kind === 'query' ? schema.getQueryType()! : schema.getMutationType()!;
  return Object.values(root.getFields()).map((field) => {
    const routed = Object.entries(routeTable).find(([k]) => k === `${kind === 'query' ? 'Query' : 'Mutation'}.${field.name}`);
    const required = routed
      ? [...routed[1].path.matchAll(/:([a-z_]+)/g)].map((m) => m[1])
      : field.args.filter((a) => isNonNullType(a.type) && /_id$/.test(a.name)).map((a) => a.name);
    return { kind, field, required };
  });
}

function gqlRequest(kind: 'query' | 'mutation', field: GraphQLField<unknown, unknown>, t: Target) {
  const op = buildOperationNodeForField({ schema, kind: kind as OperationTypeNode, field: field.name });
  const query = print({ kind: Kind.DOCUMENT, definitions: [op] });
  const given = { ...t.args, ...t.path };
  const variables = Object.fromEntries(
    field.args
      .filter((a) => a.name in given || isNonNullType(a.type))
      .map((a) => [a.name, a.name in given ? coerce(a.type, given[a.name]) : dummy(a.type, a.name)]),
  );
  return { query, variables };
}

const counts = { restPairs: 0, restCases: 0, restLists: 0, gqlPairs: 0, gqlCases: 0, gqlLists: 0, subscriptions: 0, crossings: 0 };
const report = (o: Outcome, label: string, a: { status: number; text: string }, wrong: string | null, seen: string[], changed: string[]) => {
  if (wrong || seen.length || changed.length) {
    o.crossings.push(`${label} -> ${a.status} ${a.text.slice(0, 300)}${wrong ? ` [${wrong}]` : ''}${seen.length ? ` [shows ${seen.join(', ')}]` : ''}${changed.length ? ` [changed ${changed.join(', ')}]` : ''}`);
  }
};
const listRoutes = () => routes.filter((r) => r.spec.method === 'GET' && r.key.startsWith('Query.') && !r.params.length);

describe('positive controls', () => {
  it('/v1: the victim reaches every target the matrix aims at, and its lists show what the actors must not see', async () => {
    const wrong: string[] = [];
    let reads = 0;
    for (const r of routes.filter((x) => x.key.startsWith('Query.'))) {
      for (const as of ['stranger', 'noDomain'] as const) {
        const t = aim(r.field, rootField(r.key).args.map((a) => a.name), r.params, as);
        if (t.skip || !t.carriers.length) continue;
        const res = await rest('GET', fillPath(r.spec.path, t.path), { token: ADMIN_TOKEN }, t.args);
        reads++;
        // A single resource shows the victim's data (a report: rows of it); a filtered list may be empty.
        const shown = !r.params.length || Object.keys(f.secrets.stranger).some((x) => res.text.includes(x)) || (Array.isArray(res.body?.data) && res.body.data.length > 0);
        if (res.status !== 200 || !shown) wrong.push(`${r.key} ${fillPath(r.spec.path, t.path)}${queryString(t.args)} -> ${res.status} ${res.text.slice(0, 160)}`);
      }
    }
    let lists = 0;
    for (const r of listRoutes()) {
      const res = await rest('GET', r.spec.path, { token: ADMIN_TOKEN }, { ...(VALID[r.field]?.() ?? {}) });
      if (Object.keys(f.secrets.stranger).some((x) => res.text.includes(x))) lists++;
    }
    // The actors' own tokens work: each reads its own domain.
    expect((await f.s.rest('GET', `/domains/${f.attackerDomain.id}`, { token: f.limited.token })).status).toBe(200);
    expect((await f.s.rest('GET', `/domains/${f.stranger.domain.id}`, { token: f.stranger.token })).status).toBe(200);
    // The SMS webhook row is not an email webhook even for the victim: those cases are refusals for everyone.
    expect(wrong.filter((w) => !w.includes(f.noDomain.sms_webhook_id!))).toEqual([]);
    expect(reads).toBeGreaterThan(50);
    expect(lists).toBeGreaterThan(20);
  }, 60_000);

  it('GraphQL: the victim reads every target the matrix aims at', async () => {
    const wrong: string[] = [];
    let reads = 0;
    for (const { kind, field, required } of gqlFields('query')) {
      for (const as of ['stranger', 'noDomain'] as const) {
        if (field.name.startsWith('operator_')) continue;
        const t = aim(field.name, field.args.map((a) => a.name), required, as);
        if (t.skip || !t.carriers.length) continue;
        const { query, variables } = gqlRequest(kind, field, t);
        const res = await f.s.gql(query, variables, ADMIN_TOKEN);
        reads++;
        if (res.body.errors || res.body.data?.[field.name] == null) wrong.push(`${field.name} ${JSON.stringify(variables)} -> ${res.text.slice(0, 200)}`);
      }
    }
    // A list the sweep asks unfiltered shows the victim what the actors must not be shown.
    const bulks = await f.s.gql('{ bulk_emails(limit: 100) { id } }', {}, ADMIN_TOKEN);
    expect(bulks.body.data?.bulk_emails.map((b: { id: string }) => b.id)).toContain(f.noDomain.bulk_email_id);
    expect(wrong.filter((w) => !w.includes(f.noDomain.sms_webhook_id!))).toEqual([]);
    expect(reads).toBeGreaterThan(50);
  }, 60_000);
});

// Lists first, while the data is as the fixture made it: a crossing further down changes it.
describe('lists that name nothing of the victim', () => {
  it.each(CALLERS)('%s is shown none of the victim\'s rows', async (caller) => {
    const actor = kindOf(caller);
    const o = outcome(`lists:${caller}`);
    const wrongSkips: string[] = [];
    const run = new WatchedRun();
    for (const r of listRoutes()) {
      const plain: Record<string, unknown> = { ...(VALID[r.field]?.(actor) ?? {}) };
      const needs = requiredArgs(r.key, plain);
      if (needs.length) {
        o.skips.push(`GET ${r.spec.path} unfiltered (${r.key}): needs ${needs.join(', ')}; aimed at the victim's instead`);
        if (!LIST_NEEDS_TARGET.includes(r.key)) wrongSkips.push(r.key);
        continue;
      }
      o.lists++;
      const answer = await run.send(() => rest('GET', r.spec.path, caller, plain));
      trace(`${caller} LIST ${r.spec.path}${queryString(plain)} -> ${answer.status} ${answer.text.slice(0, 100)}`);
      const ok = (answer.status >= 200 && answer.status < 300) || [403, 404, 422].includes(answer.status);
      await run.judge((changed) => report(o, `GET ${r.spec.path}${queryString(plain)} (list)`, answer, ok ? null : `status ${answer.status}`, leaked(actor, answer.text), changed));
    }
    counts.restLists += o.lists;
    let gql = 0;
    for (const { kind, field, required } of gqlFields('query')) {
      const t = aim(field.name, field.args.map((a) => a.name), field.name.startsWith('operator_') ? [] : required, actor);
      if (t.skip || isTargeted(field.name, t, actor) || field.name.startsWith('operator_')) continue;
      gql++;
      const { query, variables } = gqlRequest(kind, field, t);
      const answer = await run.send(() => gqlBy(caller, query, variables));
      trace(`${caller} LIST Query.${field.name} ${JSON.stringify(variables)} -> ${answer.status} ${answer.text.slice(0, 100)}`);
      const code = answer.body.errors?.[0]?.extensions?.code;
      const ok = answer.status < 500 && (!code || ['FORBIDDEN', 'NOT_FOUND', 'VALIDATION_FAILED'].includes(code));
      await run.judge((changed) => report(o, `Query.${field.name} ${JSON.stringify(variables)} (list)`, answer, ok ? null : `answer ${answer.status} ${code}`, leaked(actor, answer.text), changed));
    }
    await run.end();
    counts.gqlLists += gql;
    o.lists += gql;
    counts.crossings += o.crossings.length;
    expect(wrongSkips).toEqual([]);
    expect(o.lists).toBeGreaterThan(30);
    expect(o.crossings).toEqual([]);
  }, 60_000);
});

describe('/v1 aimed at the victim', () => {
  it.each(CALLERS)('%s reaches nothing of the victim on any route', async (caller) => {
    const actor = kindOf(caller);
    const o = outcome(`rest:${caller}`);
    const run = new WatchedRun();
    for (const r of routes) {
      const t = aim(r.field, rootField(r.key).args.map((a) => a.name), r.params, actor);
      if (t.skip) {
        o.skips.push(`${r.spec.method} ${r.spec.path} (${r.key}): ${t.skip}`);
        skipped[actor].add(r.key);
        continue;
      }
      if (!isTargeted(r.field, t, actor)) {
        // Lists are covered above; a change that names nothing of the victim is the caller's own business.
        if (!listRoutes().includes(r)) {
          o.skips.push(`${r.spec.method} ${r.spec.path} (${r.key}): names nothing of the victim for ${actor}`);
          skipped[actor].add(r.key);
        }
        continue;
      }
      counts.restPairs++;
      for (const v of variants(r.field, r.params, t, actor)) {
        const path = fillPath(r.spec.path, v.path);
        const label = `${r.spec.method} ${path}${r.spec.method === 'GET' ? queryString(v.args) : ` ${JSON.stringify(v.args).slice(0, 160)}`}`;
        o.cases++;
        if (r.field === 'send_bulk_email') await run.end();
        const { answer, changed } =
          r.field === 'send_bulk_email'
            ? await watched(() => rest(r.spec.method, path, caller, v.args, r.spec.arrayBody))
            : { answer: await run.send(() => rest(r.spec.method, path, caller, v.args, r.spec.arrayBody)), changed: null };
        trace(`${caller} ${label} -> ${answer.status} ${answer.text.slice(0, 140)}`);
        let wrong = refusalProblem(actor, r.field, v, answer);
        let stored = changed;
        if (wrong && changed && r.field === 'send_bulk_email' && answer.status === 202) {
          wrong = await bulkProblem(answer.body?.bulk_email_id);
          stored = changed.filter((x) => !BULK_TABLES.includes(x));
        } else if (wrong && listRoutes().includes(r) && answer.status === 200) {
          // A list filtered by a victim id may answer as it does for a missing id, and no more.
          const missing = Object.fromEntries(Object.entries(v.args).map(([k, x]) => [k, v.carriers.includes(k) ? (Array.isArray(x) ? [MISSING] : MISSING) : x]));
          const control = await rest('GET', path, caller, missing);
          if (control.status === answer.status && JSON.stringify(control.body?.data) === JSON.stringify(answer.body?.data)) wrong = null;
        }
        const verdict = (changed: string[]) => report(o, label, answer, wrong, leaked(actor, answer.text), changed);
        if (stored) verdict(stored);
        else await run.judge(verdict);
      }
    }
    await run.end();
    counts.restCases += o.cases;
    counts.crossings += o.crossings.length;
    expect(unexpectedSkips(actor)).toEqual([]);
    expect(o.cases).toBeGreaterThan(actor === 'noDomain' ? 40 : 100);
    expect(o.crossings).toEqual([]);
  }, 120_000);
});

describe('GraphQL aimed at the victim', () => {
  it.each(CALLERS)('%s reaches nothing of the victim through any root field', async (caller) => {
    const actor = kindOf(caller);
    const o = outcome(`graphql:${caller}`);
    const run = new WatchedRun();
    for (const { kind, field, required } of [...gqlFields('query'), ...gqlFields('mutation')]) {
      const name = `${kind === 'query' ? 'Query' : 'Mutation'}.${field.name}`;
      const operator = field.name.startsWith('operator_');
      const t = aim(field.name, field.args.map((a) => a.name), operator ? [] : required, actor);
      if (t.skip) {
        o.skips.push(`${name}: ${t.skip}`);
        skipped[actor].add(name);
        continue;
      }
      // The operator API is refused to every account token, whatever it names.
      if (!operator && !isTargeted(field.name, t, actor)) {
        // Queries that name nothing of the victim are the lists above.
        if (kind === 'mutation') {
          o.skips.push(`${name}: names nothing of the victim for ${actor}`);
          skipped[actor].add(name);
        }
        continue;
      }
      counts.gqlPairs++;
      for (const v of variants(field.name, required, t, actor)) {
        const { query, variables } = gqlRequest(kind, field, v);
        const label = `${name} ${JSON.stringify(variables).slice(0, 200)}`;
        o.cases++;
        if (field.name === 'send_bulk_email') await run.end();
        const { answer, changed } =
          field.name === 'send_bulk_email'
            ? await watched(() => gqlBy(caller, query, variables))
            : { answer: await run.send(() => gqlBy(caller, query, variables)), changed: null };
        trace(`${caller} ${label} -> ${answer.status} ${answer.text.slice(0, 160)}`);
        const error = answer.body.errors?.[0];
        const code = error?.extensions?.code;
        let wrong: string | null = null;
        let stored = changed;
        if (actor !== 'stranger' && wholeAccount(field.name)) {
          if (code !== 'FORBIDDEN' || error.message !== WHOLE_ACCOUNT_ONLY) wrong = 'expected the whole-account FORBIDDEN';
        } else if (!['FORBIDDEN', 'NOT_FOUND', 'VALIDATION_FAILED'].includes(code) || (actor === 'stranger' && code === 'FORBIDDEN' && !operator)) {
          wrong = `code ${code ?? 'none'}`;
        } else if (code === 'VALIDATION_FAILED') {
          wrong = fieldsProblem(Object.keys(error.extensions.errors ?? {}), v);
        }
        if (!wrong && answer.body.data?.[field.name] != null) wrong = 'data beside the error';
        if (wrong && changed && field.name === 'send_bulk_email' && answer.body.data?.send_bulk_email?.bulk_email_id) {
          wrong = await bulkProblem(answer.body.data.send_bulk_email.bulk_email_id);
          stored = changed.filter((x) => !BULK_TABLES.includes(x));
        } else if (wrong && kind === 'query' && !error && v.carriers.every((c) => !required.includes(c))) {
          // A list filtered by a victim id may answer as it does for a missing id, and no more.
          const missing = { ...variables, ...Object.fromEntries(v.carriers.filter((c) => c in variables).map((c) => [c, Array.isArray(variables[c]) ? [MISSING] : MISSING])) };
          const control = await gqlBy(caller, query, missing);
          const page = (x: any) => JSON.stringify(x?.data?.[field.name]?.data ?? x?.data?.[field.name]);
          if (!control.body.errors && page(control.body) === page(answer.body)) wrong = null;
        }
        const verdict = (changed: string[]) => report(o, label, answer, wrong, leaked(actor, answer.text), changed);
        if (stored) verdict(stored);
        else await run.judge(verdict);
      }
    }
    await run.end();
    counts.gqlCases += o.cases;
    counts.crossings += o.crossings.length;
    expect(unexpectedSkips(actor)).toEqual([]);
    expect(o.cases).toBeGreaterThan(actor === 'noDomain' ? 40 : 100);
    expect(o.crossings).toEqual([]);
  }, 120_000);
});

/** An internal event, as a producer records it (webhooks/engine-support.ts). */
async function insertEvent(e: { domain_id: string | null; type: string; payload: Record<string, unknown> }) {
  await f.db.query('insert into domain_events (id, account_id, domain_id, type, payload, created_at) values ($1, $2, $3, $4, $5::jsonb, now())', [
    newId(),
    f.accountId,
    e.domain_id,
    e.type,
    JSON.stringify(e.payload),
  ]);
}

describe('subscriptions', () => {
  const TOKENS = 'subscription { token_events { action token { id name } } }';
  const ACTIVITY = (domainId: string) => `subscription { activity(domain_id: "${domainId}") { id type email { id subject recipient { email } } } }`;
  const DELIVERIES = (webhookId: string) => `subscription { webhook_deliveries(webhook_id: "${webhookId}") { id delivery_id type success status } }`;

  it('an actor aimed at the victim is refused or hears none of its events; the victim hears them', async () => {
    const o = outcome('subscriptions');
    type Stream = Awaited<ReturnType<typeof subscribe>>;
    const streams: { actor: Actor | 'victim'; what: string; stream: Stream }[] = [];
    const open = async (actor: Actor | 'victim', what: string, query: string) => {
      const stream = await subscribe(f.s, query, actor === 'victim' ? ADMIN_TOKEN : tokenOf(actor));
      streams.push({ actor, what, stream });
      return stream;
    };
    try {
      // The actors' streams are opened first: once the victim's own streams are live, so are theirs.
      await open('stranger', 'activity', ACTIVITY(f.victimDomain.id));
      await open('otherDomain', 'activity', ACTIVITY(f.victimDomain.id));
      await open('stranger', 'webhook_deliveries', DELIVERIES(f.inDomain.webhook_id!));
      await open('otherDomain', 'webhook_deliveries', DELIVERIES(f.inDomain.webhook_id!));
      await open('noDomain', 'webhook_deliveries (SMS webhook)', DELIVERIES(f.noDomain.sms_webhook_id!));
      o.skips.push('activity(domain_id) for noDomain: no activity belongs to no domain');
      o.skips.push('token_events for noDomain: the same stream as otherDomain, which must hear neither kind');
      // Each actor's token_events stream is shown live with an event of its own first, so its silence counts.
      const strangerTokens = await open('stranger', 'token_events', TOKENS);
      await strangerTokens.live(
        (i) => f.s.rest('POST', '/token', { token: f.stranger.token, body: { name: `stranger-probe-${i}`, scopes: ['email_full'] } }),
        (e) => /^stranger-probe-/.test(e.data?.token_events?.token?.name),
      );
      const limitedTokens = await open('otherDomain', 'token_events', TOKENS);
      await limitedTokens.live(
        (i) => f.s.rest('POST', '/token', { token: f.limited.token, body: { name: `limited-probe-${i}`, scopes: ['email_full'] } }),
        (e) => /^limited-probe-/.test(e.data?.token_events?.token?.name),
      );
      const victimTokens = await open('victim', 'token_events', TOKENS);
      await victimTokens.live(
        (i) => f.s.rest('POST', '/token', { body: { name: `victim-probe-${i}`, scopes: ['email_full'] } }),
        (e) => /^victim-probe-/.test(e.data?.token_events?.token?.name),
      );
      const victimActivity = await open('victim', 'activity', ACTIVITY(f.victimDomain.id));
      const victimDeliveries = await open('victim', 'webhook_deliveries', DELIVERIES(f.inDomain.webhook_id!));

      // The victim acts: a token of its domain and one of the whole account, a send from its
      // domain (its queued activity), an attempt of its email webhook and of its SMS webhook.
      const liveTag = `victim-live-${f.tag}`;
      const wide = await f.s.rest('POST', '/token', { body: { name: `${liveTag}-wide`, scopes: ['email_full'] } });
      const scoped = await f.s.rest('POST', '/token', { body: { name: `${liveTag}-scoped`, scopes: ['email_full'], domain_id: f.victimDomain.id } });
      const liveSecrets = [wide.body.data.id, scoped.body.data.id, liveTag];
      await victimActivity.live(
        (i) => f.s.rest('POST', '/email', { body: { from: { email: f.inDomain.email }, to: [{ email: `victim-live-${i}@example.org` }], subject: `${liveTag}-${i}`, text: 'x' } }),
        (e) => (e.data?.activity ?? []).some((a: any) => a.email?.subject?.startsWith(liveTag)),
      );
      await victimDeliveries.live(
        async () => {
          await insertEvent({ domain_id: f.victimDomain.id, type: 'activity.sent', payload: { probe: liveTag } });
          await insertEvent({ domain_id: null, type: 'sms.sent', payload: { sms_number_id: f.noDomain.sms_number_id, probe: liveTag } });
          await runTick(f.s.app.services);
        },
        (e) => e.data?.webhook_deliveries?.delivery_id,
      );
      await victimTokens.next((e) => e.data?.token_events?.token?.name === `${liveTag}-scoped`);
      await victimTokens.next((e) => e.data?.token_events?.token?.name === `${liveTag}-wide`);
      await until('an attempt of the SMS webhook', async () => (await f.db.query(
        `select 1 from webhook_attempts where webhook_id = $1 and attempted_at > now() - interval '1 minute'`, [f.noDomain.sms_webhook_id],
      )).rowCount! > 0);
      const deliveryIds = (await f.db.query('select id from webhook_deliveries where webhook_id = any($1)', [[f.inDomain.webhook_id, f.noDomain.sms_webhook_id]])).rows.map((r) => r.id);
      // Whatever else is on its way has a moment to arrive.
      await new Promise((r) => setTimeout(r, 1500));

      for (const { actor, what, stream } of streams) {
        if (actor === 'victim') continue;
        counts.subscriptions++;
        const text = JSON.stringify(stream.events);
        const refused = stream.events.length > 0 && stream.events.every((e) => e.errors?.length);
        const secrets = [...Object.keys(secretsOf(actor)), ...liveSecrets, ...deliveryIds].filter((x) => text.includes(x));
        trace(`${actor} ${what}: ${refused ? 'refused' : `${stream.events.length} events`} ${text.slice(0, 200)}`);
        if (secrets.length) o.crossings.push(`${actor} subscription ${what} heard ${secrets.join(', ')}: ${text.slice(0, 300)}`);
      }
    } finally {
      for (const { stream } of streams) stream.close();
    }
    counts.crossings += o.crossings.length;
    expect(o.crossings).toEqual([]);
  }, 90_000);
});

describe('positive controls for changes', () => {
  // Run last: these change the victim's data. The same requests the actors sent, now with the victim's token.
  const SAMPLE = [
    'update_token', 'update_template', 'update_sender_identity', 'update_smtp_user', 'update_user', 'update_webhook', 'replay_webhook',
    'update_inbound', 'update_blocklist_monitor', 'update_dmarc_monitor', 'add_dmarc_favorite', 'delete_from_blocklist', 'delete_message_schedule',
    'update_sms_webhook', 'update_sms_inbound', 'update_sms_recipient', 'update_sms_number',
  ];
  it('the victim changes the same targets with the same requests', async () => {
    const wrong: string[] = [];
    let sent = 0;
    for (const r of routes.filter((x) => SAMPLE.includes(x.field))) {
      for (const as of ['otherDomain', 'noDomain'] as const) {
        const t = aim(r.field, rootField(r.key).args.map((a) => a.name), r.params, as);
        if (t.skip || !t.carriers.length) continue;
        const res = await rest(r.spec.method, fillPath(r.spec.path, t.path), { token: ADMIN_TOKEN }, t.args, r.spec.arrayBody);
        sent++;
        trace(`victim ${r.key} ${fillPath(r.spec.path, t.path)} -> ${res.status} ${res.text.slice(0, 120)}`);
        if (res.status >= 300) wrong.push(`${r.key} ${fillPath(r.spec.path, t.path)} ${JSON.stringify(t.args).slice(0, 100)} -> ${res.status} ${res.text.slice(0, 160)}`);
      }
    }
    expect(wrong.filter((w) => !w.includes(f.noDomain.sms_webhook_id!))).toEqual([]);
    expect(sent).toBeGreaterThan(20);
  }, 60_000);
});

describe('tokens', () => {
  it('a token grants only scopes it holds, only within its domain, and a token it makes without a domain gets its own', async () => {
    const weak = await f.s.rest('POST', '/token', { token: f.limited.token, body: { name: 'weak', scopes: ['tokens_full', 'email_full', 'domains_full'] } });
    expect(weak.status).toBe(200);
    const token = weak.body.data.accessToken as string;
    const refused: [Record<string, unknown>, string][] = [
      [{ name: 'wider', scopes: ['email_full', 'templates_full'] }, 'A token can only grant scopes it holds itself.'],
      [{ name: 'elsewhere', scopes: ['email_full'], domain_id: f.victimDomain.id }, 'This token is limited to another domain.'],
    ];
    for (const [body, message] of refused) {
      const { answer, changed } = await watched(() => f.s.rest('POST', '/token', { token, body }));
      expect([answer.status, answer.body, changed]).toEqual([403, { message }, []]);
    }
    // `x_full` implies `x_read`; no domain named: the caller's own.
    const made = await f.s.rest('POST', '/token', { token, body: { name: 'reader', scopes: ['domains_read'] } });
    expect(made.status).toBe(200);
    const read = await f.s.rest('GET', `/token/${made.body.data.id}`, { token });
    expect(read.status).toBe(200);
    expect((await f.db.query('select domain_id from api_tokens where id = $1', [made.body.data.id])).rows[0].domain_id).toBe(f.attackerDomain.id);
  });
});

describe('summary', () => {
  it('prints the figures of the matrix', () => {
    const skips = Object.values(outcomes).reduce((n, x) => n + x.skips.length, 0);
    const fields = gqlFields('query').length + gqlFields('mutation').length;
    console.log(
      `tenant matrix: /v1 ${routes.length} routes × ${CALLERS.length} actors: ${counts.restPairs} pairs aimed at the victim in ${counts.restCases} requests, ${counts.restLists} lists; ` +
        `GraphQL ${fields} root fields × ${CALLERS.length} actors: ${counts.gqlPairs} pairs in ${counts.gqlCases} operations, ${counts.gqlLists} lists; ` +
        `${counts.subscriptions} subscriptions; ${skips} skips; ${counts.crossings} crossings`,
    );
    expect(counts.restCases).toBeGreaterThan(0);
    // Every pair the table names was skipped on some surface: the table holds no stale entry.
    for (const actor of ACTORS) expect([actor, Object.values(NO_TARGET[actor]).flat().filter((k) => !skipped[actor].has(k))]).toEqual([actor, []]);
  });
});
