import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Auth } from '../../graphql/context.js';
import { assertDomainAccess } from '../../graphql/auth.js';
import { errors, msg } from '../../graphql/errors.js';
import { offsetOf } from '../../graphql/pagination.js';
import { FieldErrorBag } from '../../graphql/validation.js';
import { findOwned, visibleTo } from '../../db/scoped.js';
import { sha256Hex } from '../../lib/secrets.js';
import type { AppServices } from '../../services.js';
import { Account } from '../accounts/account.entity.js';
import { created, diff, recordAudit, recordUpdate, removed } from '../audit/record.js';
import { Domain } from '../domains/domain.entity.js';
import { ApiToken, type TokenStatus } from './token.entity.js';
import type { CreateTokenArgs, TokenListArgs, UpdateTokenArgs } from './token.inputs.js';
import { toToken } from './token.type.js';

export const tokenTopic = (accountId: string) => `tokens.${accountId}`;

/** What goes over NOTIFY: the token as the API shows it, and its domain for filtering. */
export interface TokenEventPayload {
  action: 'created' | 'updated' | 'deleted';
  token: ReturnType<typeof toToken>;
  domain_id: string | null;
}

/** A new secret: `mlsn.` and 64 hex characters, the shape clients of this API family expect. */
export function newTokenSecret(): string {
  return `mlsn.${randomBytes(32).toString('hex')}`;
}

const subjectOf = (t: ApiToken) => ({ type: 'token' as const, id: t.id, domainId: t.domain?.id ?? null });

export class TokenService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: Pick<AppServices, 'pubsub'>,
  ) {}

  async list(auth: Auth, args: TokenListArgs): Promise<ApiToken[]> {
    return this.em.find(ApiToken, visibleTo(auth), {
      orderBy: { created_at: 'desc', id: 'desc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
  }

  get(auth: Auth, id: string): Promise<ApiToken> {
    return findOwned(this.em, ApiToken, auth, { id });
  }

  async create(auth: Auth, args: CreateTokenArgs): Promise<{ token: ApiToken; secret: string }> {
    const bag = new FieldErrorBag();
    if (!args.name.trim()) bag.add('name', msg.required('name'));
    if (args.scopes.length === 0) bag.add('scopes', msg.required('scopes'));
    let domain: Domain | null = null;
    if (args.domain_id) {
      domain = await this.em.findOne(Domain, { id: args.domain_id, account: auth.accountId });
      if (!domain) bag.add('domain_id', msg.in('domain_id'));
    }
    bag.throwIfAny();
    // A token limited to a domain can only make tokens limited to the same domain.
    if (auth.domainId) {
      if (domain && domain.id !== auth.domainId) assertDomainAccess(auth, domain.id);
      domain = this.em.getReference(Domain, auth.domainId);
    }
    const secret = newTokenSecret();
    const token = this.em.create(ApiToken, {
      account: this.em.getReference(Account, auth.accountId),
      name: args.name.trim(),
      token_hash: sha256Hex(secret),
      scopes: [...new Set(args.scopes)],
      domain,
    } as never);
    recordAudit(this.em, auth, 'token.created', subjectOf(token), created({ name: token.name, scopes: token.scopes, domain_id: token.domain?.id ?? null }));
    await this.em.flush();
    await this.publish(auth, 'created', token);
    return { token, secret };
  }

  async update(auth: Auth, args: UpdateTokenArgs): Promise<ApiToken> {
    if (args.status == null && args.name == null) throw errors.invalid('name', msg.requiredWithout('name', 'status'));
    const token = await this.get(auth, args.token_id);
    const before = { name: token.name, status: token.status };
    if (args.name != null) {
      if (!args.name.trim()) throw errors.invalid('name', msg.required('name'));
      token.name = args.name.trim();
    }
    if (args.status != null) token.status = args.status as TokenStatus;
    const changes = diff(before, { name: token.name, status: token.status });
    const action = !changes.status ? 'token.updated' : token.status === 'pause' ? 'token.paused' : 'token.unpaused';
    recordUpdate(this.em, auth, action, subjectOf(token), changes);
    await this.em.flush();
    await this.publish(auth, 'updated', token);
    return token;
  }

  async remove(auth: Auth, id: string): Promise<boolean> {
    const token = await this.get(auth, id);
    recordAudit(this.em, auth, 'token.deleted', subjectOf(token), removed({ name: token.name }));
    await this.em.remove(token).flush();
    await this.publish(auth, 'deleted', token);
    return true;
  }

  private async publish(auth: Auth, action: TokenEventPayload['action'], token: ApiToken) {
    const payload: TokenEventPayload = { action, token: toToken(token), domain_id: token.domain?.id ?? null };
    await this.services.pubsub.publish(tokenTopic(auth.accountId), payload);
  }
}
