import type { EntityManager } from '@mikro-orm/postgresql';
import type { Actor } from '../../core/actor.js';
import { Account } from '../accounts/account.entity.js';
import { AuditEvent, type ActorType } from './audit-event.entity.js';

export const AUDIT_ACTIONS = [
  'token.created',
  'token.updated',
  'token.paused',
  'token.unpaused',
  'token.deleted',
  'smtp_user.created',
  'smtp_user.updated',
  'smtp_user.deleted',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
  'sms_webhook.created',
  'sms_webhook.updated',
  'sms_webhook.deleted',
  'user.invited',
  'user.updated',
  'user.deleted',
  'user.invite_accepted',
  'user.owner_claimed',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type Changes = Record<string, { from?: unknown; to?: unknown }>;

export interface AuditActor {
  type: ActorType;
  id: string | null;
  name: string | null;
  ip: string | null;
}

/** An API token acting, or an account and an explicit actor (an invitee, the operator). */
export type AuditBy = Actor | { accountId: string; actor: AuditActor };

export interface AuditSubject {
  type: 'token' | 'smtp_user' | 'webhook' | 'sms_webhook' | 'user' | 'invite';
  id: string;
  /** The one domain the subject belongs to, if any: domain-limited tokens read only these events. */
  domainId?: string | null;
}

/**
 * Fields whose values may be written into `changes`. Anything else is recorded by name only:
 * secrets (token values, password hashes, signing secrets) are never passed here, and a URL can
 * carry credentials in its user-info or query, so it is named, not copied.
 */
const VALUE_FIELDS = new Set([
  'name',
  'status',
  'enabled',
  'scopes',
  'domain_id',
  'sms_number_id',
  'username',
  'events',
  'email',
  'role',
  'permissions',
  'domain_ids',
  'template_ids',
  'requires_periodic_password_change',
  'paused_reason',
  'invite_id',
]);

/** A person of the account, or an invitation: it belongs to a domain only when limited to exactly one. */
export function memberSubject(type: 'user' | 'invite', id: string, domainIds: readonly string[]): AuditSubject {
  return { type, id, domainId: domainIds.length === 1 ? domainIds[0] : null };
}

/** The fields of a member the log shows. */
export const accessOf = (m: { role: string; permissions: string[]; domain_ids: string[]; template_ids: string[]; requires_periodic_password_change: boolean }) => ({
  role: m.role,
  permissions: m.permissions,
  domain_ids: m.domain_ids,
  template_ids: m.template_ids,
  requires_periodic_password_change: m.requires_periodic_password_change,
});

function actorOf(by: AuditBy): AuditActor {
  if ('actor' in by) return by.actor;
  return { type: 'token', id: by.tokenId, name: by.tokenName ?? null, ip: by.ip ?? null };
}

function sanitize(changes: Changes): Changes {
  const out: Changes = {};
  for (const [field, change] of Object.entries(changes)) {
    out[field] = VALUE_FIELDS.has(field) ? change : {};
  }
  return out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** `{field: {from, to}}` for each field whose value differs between the two snapshots. */
export function diff(before: Record<string, unknown>, after: Record<string, unknown>): Changes {
  const out: Changes = {};
  for (const [field, to] of Object.entries(after)) {
    if (!same(before[field], to)) out[field] = { from: before[field], to };
  }
  return out;
}

/** The fields a create set: `{field: {to}}`. */
export const created = (fields: Record<string, unknown>): Changes =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { to: v }]));

/** What a deleted subject was: `{field: {from}}`. */
export const removed = (fields: Record<string, unknown>): Changes =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { from: v }]));

/**
 * Adds an audit row to the unit of work of `em`: the flush (or the `transactional` block) that
 * writes the change writes the row too, so a change that is refused or rolled back leaves none.
 * Call it after every check of the change has passed.
 */
export function recordAudit(em: EntityManager, by: AuditBy, action: AuditAction, subject: AuditSubject, changes: Changes = {}): void {
  const actor = actorOf(by);
  em.create(AuditEvent, {
    account: em.getReference(Account, by.accountId),
    actor_type: actor.type,
    actor_id: actor.id,
    actor_name: actor.name?.slice(0, 320) ?? null,
    action,
    subject_type: subject.type,
    subject_id: subject.id,
    domain_id: subject.domainId ?? null,
    changes: sanitize(changes),
    ip: actor.ip,
  });
}

/** Records an update only when it changed something. */
export function recordUpdate(em: EntityManager, by: AuditBy, action: AuditAction, subject: AuditSubject, changes: Changes): void {
  if (Object.keys(changes).length) recordAudit(em, by, action, subject, changes);
}
