import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned, visibleTo } from '../../db/scoped.js';
import { newId } from '../../lib/ids.js';
import { InboundRepository } from './inbound.repository.js';
import { encrypt, randomSecret } from '../../lib/secrets.js';
import { enqueue } from '../../jobs/boss.js';
import { systemMailJob } from '../mail/system-mail.job.js';
import type { AppServices } from '../../core/services.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';
import { Inbound, type InboundForward } from './inbound.entity.js';
import type { CreateInboundArgs, InboundFieldsArgs, InboundListArgs, UpdateInboundArgs } from './inbound.inputs.js';
import { hostAndParents, type StoredFilter } from './inbound.match.js';
import { forwardConfirmationMail } from './inbound.confirm.js';
import { confirmationsOf, toConfirm, type Confirmation } from './inbound.destination.js';
import {
  checkCatchFilter,
  checkDomainVerified,
  checkForwards,
  checkInboundDomain,
  checkMatchFilter,
  checkMode,
  checkName,
  INBOUND_DOMAIN_TAKEN,
} from './inbound.validate.js';
import { type Actor, assertDomainAccess } from '../../core/actor.js';
import { msg, FieldErrorBag } from '../../core/errors.js';
import { offsetOf, pageMeta, type Page } from '../../core/page.js';

/** What a create or update resolves to, once checked: the route's new settings. */
interface Settings {
  domain_enabled: boolean;
  inbound_domain: string | null;
  inbound_priority: number;
  catch_filter: StoredFilter;
  match_filter: StoredFilter;
  forwards: InboundForward[];
  enabled: boolean;
}

/** Inbound routes of the account (COMPAT.md "Inbound email routes"). */
export class InboundService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: Pick<AppServices, 'config' | 'boss'>,
  ) {}

  async list(auth: Actor, args: InboundListArgs): Promise<Inbound[]> {
    return (await this.page(auth, args)).rows;
  }

  /** One page with the full pager's meta (GET /v1/inbound). */
  async page(auth: Actor, args: InboundListArgs): Promise<Page<Inbound>> {
    const where = visibleTo(auth);
    if (args.domain_id) {
      const domain = await findOwned(this.em, Domain, auth, { id: args.domain_id });
      assertDomainAccess(auth, domain.id);
      where.domain = domain.id;
    }
    const [rows, total] = await this.em.findAndCount(Inbound, where, {
      populate: ['domain'],
      orderBy: { created_at: 'desc', id: 'desc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
    return { rows, meta: pageMeta(args, rows.length, total) };
  }

  get(auth: Actor, id: string): Promise<Inbound> {
    return findOwned(this.em, Inbound, auth, { id }, ['domain']);
  }

  async create(auth: Actor, args: CreateInboundArgs): Promise<Inbound> {
    const bag = new FieldErrorBag();
    checkName(bag, args.name);
    const domain = await this.em.findOne(Domain, { id: args.domain_id, account: auth.accountId });
    if (!domain) bag.add('domain_id', msg.in('domain_id'));
    else {
      assertDomainAccess(auth, domain.id);
      checkDomainVerified(bag, domain);
    }
    if (args.forwards == null) bag.add('forwards', msg.required('forwards'));
    const settings = this.settings(bag, args, domain?.name ?? null, null);
    if (domain) await this.checkInboundDomainFree(bag, auth, settings, domain.name, null);
    bag.throwIfAny();
    return this.em.transactional(async (tx) => {
      const inbound = tx.create(Inbound, {
        account: tx.getReference(Account, auth.accountId),
        domain: domain!,
        name: args.name.trim(),
        address: `${newId(16)}@${this.services.config.INBOUND_MX_HOST.toLowerCase()}`,
        ...settings,
      });
      await tx.flush();
      await this.askConfirmations(tx, auth, inbound, domain!.name);
      return inbound;
    });
  }

  async update(auth: Actor, args: UpdateInboundArgs): Promise<Inbound> {
    const inbound = await this.get(auth, args.inbound_id);
    const bag = new FieldErrorBag();
    if (args.name !== undefined) checkName(bag, args.name);
    checkDomainVerified(bag, inbound.domain);
    const settings = this.settings(bag, args, inbound.domain.name, inbound);
    await this.checkInboundDomainFree(bag, auth, settings, inbound.domain.name, inbound.id);
    bag.throwIfAny();
    if (args.name != null) inbound.name = args.name.trim();
    const kept = new Set(settings.forwards.map((f) => f.id));
    const dropped = inbound.forwards.filter((f) => f.type === 'webhook' && !kept.has(f.id)).map((f) => f.id);
    Object.assign(inbound, settings);
    await this.em.transactional(async (tx) => {
      await tx.flush();
      // A removed webhook forward takes its pending retries with it.
      await new InboundRepository(tx).dropTargets(auth.accountId, dropped);
      if (args.forwards != null) await this.askConfirmations(tx, auth, inbound, inbound.domain.name);
    });
    return inbound;
  }

  /** How each email forward's address is allowed (inbound.destination.ts), for the records. */
  async confirmations(auth: Actor, routes: Inbound[]): Promise<Map<string, Confirmation>> {
    const emails = routes.flatMap((r) => r.forwards.filter((f) => f.type === 'email').map((f) => f.value));
    return confirmationsOf(this.em, auth.accountId, emails);
  }

  async remove(auth: Actor, id: string): Promise<boolean> {
    const inbound = await this.get(auth, id);
    const hooks = inbound.forwards.filter((f) => f.type === 'webhook').map((f) => f.id);
    await this.em.transactional(async (tx) => {
      await new InboundRepository(tx).dropTargets(auth.accountId, hooks);
      await tx.remove(inbound).flush();
    });
    return true;
  }

  /** The checked settings: what the request sends, over what the route had (or the defaults). */
  private settings(bag: FieldErrorBag, args: InboundFieldsArgs, domainName: string | null, was: Inbound | null): Settings {
    const domainEnabled = args.domain_enabled ?? was?.domain_enabled ?? false;
    const rawDomain = args.inbound_domain !== undefined ? args.inbound_domain : was?.inbound_domain;
    const inboundDomain = domainName === null ? null : checkInboundDomain(bag, rawDomain, domainName, domainEnabled);
    checkMode(bag, 'catch_type', args.catch_type);
    checkMode(bag, 'match_type', args.match_type);
    const oldCatch = was?.catch_filter as StoredFilter | undefined;
    const oldMatch = was?.match_filter as StoredFilter | undefined;
    const catchFilter = args.catch_filter
      ? checkCatchFilter(bag, args.catch_filter, args.catch_type ?? oldCatch?.mode)
      : withMode(oldCatch ?? { type: 'catch_all', filters: [] }, args.catch_type);
    const matchFilter = args.match_filter
      ? checkMatchFilter(bag, args.match_filter, args.match_type ?? oldMatch?.mode)
      : withMode(oldMatch ?? { type: 'match_all', filters: [] }, args.match_type);
    let forwards = was?.forwards ?? [];
    if (args.forwards != null) {
      const { WEBHOOK_ALLOW_PRIVATE, INBOUND_MX_HOST } = this.services.config;
      checkForwards(bag, args.forwards, { allowPrivate: WEBHOOK_ALLOW_PRIVATE, inboundHost: INBOUND_MX_HOST });
      forwards = this.forwards(args.forwards, was?.forwards ?? []);
    }
    return {
      domain_enabled: domainEnabled,
      inbound_domain: inboundDomain,
      inbound_priority: args.inbound_priority ?? was?.inbound_priority ?? 0,
      catch_filter: catchFilter,
      match_filter: matchFilter,
      forwards,
      enabled: args.enabled ?? was?.enabled ?? true,
    };
  }

  /**
   * A forward sent again unchanged keeps its id and secret, so saving a route does not break
   * the receivers already verifying its signatures; a new webhook forward gets a new secret.
   */
  private forwards(list: { type: string; value: string }[], old: InboundForward[]): InboundForward[] {
    return list.map((f) => {
      const value = f.value.trim();
      const same = old.find((o) => o.type === f.type && o.value === value);
      if (same) return same;
      const type = f.type as InboundForward['type'];
      return {
        id: newId(),
        type,
        value,
        secret_enc: type === 'webhook' ? encrypt(this.services.config.APP_SECRET, randomSecret()) : null,
      };
    });
  }

  /**
   * An inbound domain belongs to one account. Refused: one that a route of another account uses,
   * or that lies under another account's domain nested in this route's domain (domain creation
   * refuses such nesting now; older data may hold it). A parent of the route's domain held by
   * another account does not count: the more specific domain wins, as when mail is routed.
   * Then, among the account's own routes: two enabled ones with the same priority would leave
   * the order to chance, so the second is refused.
   */
  private async checkInboundDomainFree(bag: FieldErrorBag, auth: Actor, s: Settings, domainName: string, exceptId: string | null) {
    if (!s.inbound_domain || bag.has('inbound_domain')) return;
    const nested = hostAndParents(s.inbound_domain).filter((n) => n.length > domainName.length);
    const foreignRoute = await this.em.count(Inbound, { inbound_domain: s.inbound_domain, account: { $ne: auth.accountId } });
    const foreignDomain = nested.length ? await this.em.count(Domain, { name: { $in: nested }, account: { $ne: auth.accountId } }) : 0;
    if (foreignRoute || foreignDomain) return void bag.add('inbound_domain', INBOUND_DOMAIN_TAKEN);
    if (!s.domain_enabled || !s.enabled) return;
    const where: Record<string, unknown> = {
      account: auth.accountId,
      inbound_domain: s.inbound_domain,
      inbound_priority: s.inbound_priority,
      domain_enabled: true,
      enabled: true,
    };
    if (exceptId) where.id = { $ne: exceptId };
    if (await this.em.count(Inbound, where)) {
      bag.add('inbound_priority', `Another enabled route of ${s.inbound_domain} already has the priority ${s.inbound_priority}.`);
    }
  }

  /**
   * Mails a confirmation link to each email forward's address that is not yet allowed, in the
   * saving transaction (the mail exists if and only if the route does).
   */
  private async askConfirmations(tx: EntityManager, auth: Actor, inbound: Inbound, domainName: string) {
    const emails = inbound.forwards.filter((f) => f.type === 'email').map((f) => f.value);
    const states = await confirmationsOf(tx, auth.accountId, emails);
    const pending = [...states].filter(([, state]) => state === 'pending').map(([email]) => email);
    for (const row of await toConfirm(tx, auth.accountId, pending)) {
      const about = { account_id: auth.accountId, domain_id: inbound.domain.id };
      await enqueue(tx, this.services.boss, systemMailJob, { ...forwardConfirmationMail(this.services.config, row, domainName), ...about });
    }
  }
}

function withMode(f: StoredFilter, mode: string | null | undefined): StoredFilter {
  if (mode !== 'all' && mode !== 'one') return f;
  return { ...f, mode };
}
