import { Field, ID, ObjectType } from 'type-graphql';
import { IsoTimestamp, JSONObject } from '../../graphql/scalars.js';
import { DomainRef, toDomainRef } from '../domains/domain-ref.type.js';
import { Domain } from '../domains/domain.entity.js';
import { Template } from '../templates/template.entity.js';
import type { AccountUser, Invite } from './user.entity.js';
import { permissionsOf } from './roles.js';
import { PageMeta } from '../../graphql/pagination.js';

@ObjectType({ description: 'A template a user is limited to.' })
export class UserTemplateRef {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field() type!: string;
  @Field(() => IsoTimestamp) created_at!: Date;
}

@ObjectType('AccountUser', { description: 'A person with access to the account.' })
export class UserType {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) avatar!: string | null;
  @Field() email!: string;
  @Field() last_name!: string;
  @Field() name!: string;
  @Field({ description: 'Two-factor authentication is on. Named `2fa` on /v1.' }) two_fa!: boolean;
  @Field(() => IsoTimestamp) created_at!: Date;
  @Field(() => IsoTimestamp) updated_at!: Date;
  @Field() role!: string;
  @Field(() => [String]) permissions!: string[];
  @Field(() => [DomainRef], { description: 'The domains this user may access; empty means all of them.' })
  domains!: DomainRef[];
  @Field(() => [UserTemplateRef], { description: 'The templates this user may access; empty means all of them.' })
  templates!: UserTemplateRef[];
}

@ObjectType('Invite', { description: 'An invitation to join the account, pending until accepted.' })
export class InviteType {
  @Field(() => ID) id!: string;
  @Field() email!: string;
  @Field(() => JSONObject, { nullable: true }) data!: Record<string, unknown> | null;
  @Field(() => [String]) permissions!: string[];
  @Field() role!: string;
  @Field() requires_periodic_password_change!: boolean;
  @Field(() => IsoTimestamp) created_at!: Date;
  @Field(() => IsoTimestamp) updated_at!: Date;
}

/**
 * `refs` are the account's domains and templates by id (UserService.refsOf); ids of domains
 * or templates deleted since are left out.
 */
export function toUser(u: AccountUser, refs: ReadonlyMap<string, Domain | Template>): UserType {
  const domain = (id: string) => {
    const d = refs.get(id);
    return d instanceof Domain ? [toDomainRef(d)] : [];
  };
  const template = (id: string) => {
    const t = refs.get(id);
    return t instanceof Template ? [{ id: t.id, name: t.name, type: t.type, created_at: t.created_at }] : [];
  };
  return {
    id: u.id,
    avatar: u.avatar,
    email: u.email,
    last_name: u.last_name,
    name: u.name,
    two_fa: u.two_fa,
    created_at: u.created_at,
    updated_at: u.updated_at,
    role: u.role,
    permissions: permissionsOf(u.role, u.permissions),
    domains: u.domain_ids.flatMap(domain),
    templates: u.template_ids.flatMap(template),
  };
}

export function toInvite(i: Invite): InviteType {
  return {
    id: i.id,
    email: i.email,
    data: null,
    permissions: permissionsOf(i.role, i.permissions),
    role: i.role,
    requires_periodic_password_change: i.requires_periodic_password_change,
    created_at: i.created_at,
    updated_at: i.updated_at,
  };
}

@ObjectType({ description: 'One page of invitations with the full pager (GET /v1/invites).' })
export class InvitePage {
  @Field(() => [InviteType]) data!: InviteType[];
  @Field(() => PageMeta) meta!: PageMeta;
}
