import { Field, ID, ObjectType } from 'type-graphql';
import { PageMeta } from '../../graphql/pagination.js';
import { IsoTimestamp, JSONObject } from '../../graphql/scalars.js';
import type { AuditEvent } from './audit-event.entity.js';

@ObjectType({ description: 'Who made a change.' })
export class AuditActor {
  @Field({ description: 'token, operator or invitee' }) type!: string;
  @Field(() => ID, {
    nullable: true,
    description: 'The token id, or the user an accepted invitation created; null for the operator, and for a token the caller cannot see (another domain\'s, or an account-wide one for a domain-limited token).',
  })
  id!: string | null;
  @Field(() => String, { nullable: true, description: 'The token name at the time, the invitee\'s email, or operator.' })
  name!: string | null;
}

@ObjectType({ description: 'One recorded change to a token, SMTP user, webhook, SMS webhook or account user.' })
export class AuditEventType {
  @Field(() => ID) id!: string;
  @Field({ description: 'e.g. token.created, token.paused, smtp_user.updated, user.invite_accepted' }) action!: string;
  @Field(() => AuditActor) actor!: AuditActor;
  @Field({ description: 'token, smtp_user, webhook, sms_webhook, user or invite' }) subject_type!: string;
  @Field(() => ID) subject_id!: string;
  @Field(() => JSONObject, {
    description: 'Field name → {from, to}. Values only for plain fields (names, statuses, roles, scopes, events); others, like url, by name only. Never secrets.',
  })
  changes!: Record<string, unknown>;
  @Field(() => String, { nullable: true, description: 'The client address, when known.' }) ip!: string | null;
  @Field(() => IsoTimestamp) created_at!: Date;
}

@ObjectType()
export class AuditEventPage {
  @Field(() => [AuditEventType]) data!: AuditEventType[];
  @Field(() => PageMeta) meta!: PageMeta;
}

/** `unseen`: actor token ids the caller may not see; such an actor shows as a token, nameless. */
export function toAuditEvent(e: AuditEvent, unseen: ReadonlySet<string> = new Set()): AuditEventType {
  const hidden = e.actor_type === 'token' && !!e.actor_id && unseen.has(e.actor_id);
  return {
    id: e.id,
    action: e.action,
    actor: hidden ? { type: e.actor_type, id: null, name: null } : { type: e.actor_type, id: e.actor_id, name: e.actor_name },
    subject_type: e.subject_type,
    subject_id: e.subject_id,
    changes: e.changes,
    ip: e.ip,
    created_at: e.created_at,
  };
}
