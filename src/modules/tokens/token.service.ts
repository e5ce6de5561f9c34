import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import { sha256Hex } from '../../lib/secrets.js';
import type { AppServices } from '../../core/services.js';
import { Account } from '../accounts/account.entity.js';
import { created, diff, recordAudit, recordUpdate, removed } from '../audit/audit.record.js';
import { Domain } from '../domains/domain.entity.js';
import { ApiToken, type TokenStatus } from './token.entity.js';
import type { CreateTokenArgs, TokenListArgs, UpdateTokenArgs } from './token.inputs.js';
import { toToken } from './token.mapper.js';
import { forgetTokenHere } from '../../core/token-cache.js';
import { TokenRepository, type TokenRow } from './token.repository.js';
import { type Actor, assertDomainAccess } from '../../core/actor.js';
import { scopeSatisfied } from '../../core/scopes.js';
import { errors, msg, FieldErrorBag } from '../../core/errors.js';
import { offsetOf, pageMeta, type Page } from '../../core/page.js';

export const tokenTopic = (accountId: string) => `tokens.${accountId}`;

/** Published when a token is paused or deleted: every process ends its live streams (http/stream-guard.ts). */
export const TOKEN_REVOKED = 'token_revoked';

export interface TokenRevoked {
  token_id: string;
}

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

/** The scopes that reach templates: reading and editing them, and sending with any of them. */
const TEMPLATE_SCOPES = ['templates_full', 'email_full'];

/**
 * A token grants only what it holds: every scope asked for must be one of its own (or implied by
 * one). A token has no template limit, so a caller limited to some templates (a console user)
 * grants no scope that reaches templates (test/users/grants.test.ts).
 */
function assertGrantable(auth: Actor, scopes: string[], message = 'A token can only grant scopes it holds itself.'): void {
  if (!scopes.every((s) => scopeSatisfied(auth.scopes, s))) throw errors.forbidden(message);
  if (auth.templateIds?.length && scopes.some((s) => TEMPLATE_SCOPES.includes(s))) {
    throw errors.forbidden(`A user limited to some templates cannot hold a token that reaches every template (${TEMPLATE_SCOPES.join(', ')}).`);
  }
}

const subjectOf = (t: ApiToken) => ({ type: 'token' as const, id: t.id, domainId: t.domain?.id ?? null });

export class TokenService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: Pick<AppServices, 'pubsub'>,
  ) {}

  /** Plain rows from one prepared statement: a list shows columns, it needs no entities. */
  list(auth: Actor, args: TokenListArgs): Promise<TokenRow[]> {
    return new TokenRepository(this.em).list(auth.accountId, auth.domainId, args.limit, offsetOf(args));
  }

  /** One page with the full pager's meta (GET /v1/token): the rows and their total in one statement. */
  async page(auth: Actor, args: TokenListArgs): Promise<Page<TokenRow>> {
    const { rows, total } = await new TokenRepository(this.em).page(auth.accountId, auth.domainId, args.limit, offsetOf(args));
    return { rows, meta: pageMeta(args, rows.length, total) };
  }

  get(auth: Actor, id: string): Promise<ApiToken> {
    return findOwned(this.em, ApiToken, auth, { id });
  }

  async create(auth: Actor, args: CreateTokenArgs): Promise<{ token: ApiToken; secret: string }> {
    const bag = new FieldErrorBag();
    if (!args.name.trim()) bag.add('name', msg.required('name'));
    if (args.scopes.length === 0) bag.add('scopes', msg.required('scopes'));
    let domain: Domain | null = null;
    if (args.domain_id) {
      domain = await this.em.findOne(Domain, { id: args.domain_id, account: auth.accountId });
      if (!domain) bag.add('domain_id', msg.in('domain_id'));
    }
    bag.throwIfAny();
    assertGrantable(auth, args.scopes);
    // A token limited to a domain makes tokens limited to the same domain: naming another is a
    // 403, naming none gives its own (loaded, since the answer shows the domain's name).
    if (auth.domainId) {
      if (domain) assertDomainAccess(auth, domain.id);
      else domain = await this.em.findOneOrFail(Domain, { id: auth.domainId, account: auth.accountId });
    }
    const secret = newTokenSecret();
    const token = this.em.create(ApiToken, {
      account: this.em.getReference(Account, auth.accountId),
      name: args.name.trim(),
      token_hash: sha256Hex(secret),
      scopes: [...new Set(args.scopes)],
      domain,
    });
    recordAudit(this.em, auth, 'token.created', subjectOf(token), created({ name: token.name, scopes: token.scopes, domain_id: token.domain?.id ?? null }));
    await this.em.flush();
    await this.publish(auth, 'created', token);
    return { token, secret };
  }

  async update(auth: Actor, args: UpdateTokenArgs): Promise<ApiToken> {
    if (args.status == null && args.name == null) throw errors.invalid('name', msg.requiredWithout('name', 'status'));
    const token = await this.changeable(auth, args.token_id);
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
    // This process forgets it now; the others when the trigger's NOTIFY arrives (token.cache.ts).
    forgetTokenHere({ token_id: token.id });
    await this.publish(auth, 'updated', token);
    if (token.status === 'pause') await this.revoke(token);
    return token;
  }

  async remove(auth: Actor, id: string): Promise<boolean> {
    const token = await this.changeable(auth, id);
    recordAudit(this.em, auth, 'token.deleted', subjectOf(token), removed({ name: token.name }));
    await this.em.remove(token).flush();
    forgetTokenHere({ token_id: token.id });
    await this.publish(auth, 'deleted', token);
    await this.revoke(token);
    return true;
  }

  /**
   * A token the caller may pause, rename or delete: one it can see (db/scoped.ts) whose scopes it
   * holds itself, so a lesser token cannot lock out a stronger one of its domain (403).
   */
  private async changeable(auth: Actor, id: string): Promise<ApiToken> {
    const token = await this.get(auth, id);
    if (token.id !== auth.tokenId) assertGrantable(auth, token.scopes, 'This token cannot change a token with scopes it does not hold.');
    return token;
  }

  /** Its live streams end, in every process (http/stream-guard.ts). */
  private async revoke(token: ApiToken) {
    const notice: TokenRevoked = { token_id: token.id };
    await this.services.pubsub.publish(TOKEN_REVOKED, notice);
  }

  private async publish(auth: Actor, action: TokenEventPayload['action'], token: ApiToken) {
    const payload: TokenEventPayload = { action, token: toToken(token), domain_id: token.domain?.id ?? null };
    await this.services.pubsub.publish(tokenTopic(auth.accountId), payload);
  }
}
