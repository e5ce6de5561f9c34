import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { EntityManager } from '@mikro-orm/postgresql';
import { getPublicSuffix } from 'tldts';
import { findOwned } from '../../db/scoped.js';
import { encrypt } from '../../lib/secrets.js';
import type { AppServices } from '../../core/services.js';
import { Account } from '../accounts/account.entity.js';
import { applyCheck, checkDns } from './dns-check.js';
import { DEFAULT_DOMAIN_SETTINGS, Domain, type DomainSettings } from './domain.entity.js';
import { domainSendingResumed } from './domain.events.js';
import type { CreateDomainArgs, DomainListArgs, DomainSettingsArgs } from './domain.inputs.js';
import { DomainRepository, type DomainListRow } from './domain.repository.js';
import { takenIfDuplicate } from '../../db/unique.js';
import { type Actor, assertDomainAccess, domainsOf, isDomainLimited } from '../../core/actor.js';
import { errors, msg } from '../../core/errors.js';
import { offsetOf, pageMeta, type Page } from '../../core/page.js';

const generateRsa = promisify(generateKeyPair);
const DOMAIN_NAME = /^(?=.{1,253}$)((?!-)[a-z0-9-]{1,63}(?<!-)\.)+[a-z][a-z0-9-]{0,62}(?<!-)$/;

/** A fresh RSA-2048 DKIM key pair: the public half as the base64 DER a DKIM record carries. */
export async function dkimKeyPair(appSecret: string) {
  const { publicKey, privateKey } = await generateRsa('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey: Buffer.from(publicKey).toString('base64'), privateKeyEnc: encrypt(appSecret, privateKey) };
}

/** The name itself, then each parent down to (not including) the top-level label: `a.b.c` → `a.b.c`, `b.c`. */
export function nameAndParents(name: string): string[] {
  const labels = name.split('.');
  return labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
}

/** PSL lookups include the private section, so `github.io` counts as a suffix as much as `co.uk`. */
const PSL = { allowPrivateDomains: true };

/** Is the name itself a public suffix (`co.uk`, `github.io`), which nobody can own? */
export function isPublicSuffix(name: string): boolean {
  return getPublicSuffix(name, PSL) === name;
}

export const FOREIGN_RELATIVE = 'The name is a parent or a subdomain of a domain of another account.';

/**
 * Another account's domain that is this name's parent or subdomain (an equal name is the unique
 * index's business). A parent would let its holder claim inbound domains under the other's
 * names; a subdomain would be the same attack the other way round.
 */
function foreignRelative(em: EntityManager, accountId: string, name: string): Promise<boolean> {
  return new DomainRepository(em).foreignRelativeExists(accountId, name, nameAndParents(name).slice(1));
}

/**
 * Serialises creations of related names. Every creation takes a transaction-scoped advisory lock
 * on its own name and on each of its parents that is not a public suffix. Of any parent P and
 * child C, both lock P (C locks its parents, P itself), so the second waits for the first to
 * commit and then sees its row: two accounts racing for `acme.com` and `mail.acme.com` cannot both
 * win. (One lock on the registrable domain is not enough: with private PSL entries a parent such
 * as `amazonaws.com` and a child `x.s3.amazonaws.com` have different registrable domains.)
 * Public suffixes are skipped since nobody can create one, so `.co.uk` creations do not all queue
 * on one lock; locks are taken shortest name first, so two creations never wait on each other
 * in a cycle.
 */
async function lockNameFamily(em: EntityManager, name: string): Promise<void> {
  const names = nameAndParents(name)
    .filter((n) => n === name || !isPublicSuffix(n))
    .sort((a, b) => a.length - b.length || a.localeCompare(b));
  const domains = new DomainRepository(em);
  for (const n of names) await domains.lockName(n);
}

/** A page of domains, each row with its count of messages not yet handed to delivery (`not_queued`), read in one statement. */
export type CountedPage = Page<DomainListRow & { not_queued: number }>;

/** The domain's count of accepted messages not yet handed to delivery (domain.repository.ts). */
export async function notQueuedOf(em: EntityManager, domainId: string): Promise<number> {
  return (await new DomainRepository(em).notQueuedCounts([domainId])).get(domainId) ?? 0;
}

export class DomainService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: Pick<AppServices, 'config' | 'dns'> & Partial<Pick<AppServices, 'boss'>>,
  ) {}

  async list(auth: Actor, args: DomainListArgs): Promise<CountedPage> {
    const { rows, total } = await new DomainRepository(this.em).listPage(
      { accountId: auth.accountId, domainIds: domainsOf(auth), verified: args.verified ?? null },
      args.limit,
      offsetOf(args),
    );
    return { rows, meta: pageMeta(args, rows.length, total) };
  }

  async get(auth: Actor, id: string): Promise<Domain> {
    const domain = await findOwned(this.em, Domain, auth, { id });
    assertDomainAccess(auth, domain.id);
    return domain;
  }

  async create(auth: Actor, args: CreateDomainArgs): Promise<Domain> {
    // A caller limited to some domains (a token's one, a user's one or several) adds none.
    if (isDomainLimited(auth)) throw errors.forbidden(auth.domainId ? 'This token is limited to one domain.' : 'This user is limited to some domains.');
    const name = args.name.trim();
    if (name !== name.toLowerCase()) throw errors.invalid('name', 'The name must be lowercase.');
    if (!DOMAIN_NAME.test(name)) throw errors.invalid('name', 'The name must be a valid domain name.');
    if (isPublicSuffix(name)) throw errors.invalid('name', 'The name is a public suffix (like co.uk): add a domain registered under it.');
    if (await this.em.count(Domain, { name })) throw errors.invalid('name', msg.taken('name'));
    // Checked again under the lock below; asking first spares the DNS lookup and the key generation.
    if (await foreignRelative(this.em, auth.accountId, name)) throw errors.invalid('name', FOREIGN_RELATIVE);
    // Only a definite NXDOMAIN refuses, and DOMAIN_REQUIRE_DNS=false skips the check for
    // air-gapped installs whose resolver answers NXDOMAIN for everything outside. The sandbox
    // (DOMAIN_VERIFICATION=trust) asks no DNS at all: it trusts the name.
    const trust = this.services.config.DOMAIN_VERIFICATION === 'trust';
    if (!trust && this.services.config.DOMAIN_REQUIRE_DNS && (await this.services.dns.exists(name)) === 'nxdomain') {
      throw errors.invalid('name', 'The name must be a resolvable domain.');
    }
    const keys = await dkimKeyPair(this.services.config.APP_SECRET);
    const settings: DomainSettings = { ...DEFAULT_DOMAIN_SETTINGS };
    if (args.return_path_subdomain) settings.return_path_subdomain = args.return_path_subdomain.toLowerCase();
    if (args.custom_tracking_subdomain) settings.custom_tracking_subdomain = args.custom_tracking_subdomain.toLowerCase();
    if (args.inbound_routing_subdomain) settings.inbound_routing_subdomain = args.inbound_routing_subdomain.toLowerCase();
    // Two concurrent requests for one name: the unique index decides; for a parent and a child,
    // the lock (lockNameFamily) makes the second see the first before it inserts.
    return takenIfDuplicate('name', () =>
      this.em.transactional(async (tx) => {
        await lockNameFamily(tx, name);
        if (await foreignRelative(tx, auth.accountId, name)) throw errors.invalid('name', FOREIGN_RELATIVE);
        const domain = tx.create(Domain, {
          account: tx.getReference(Account, auth.accountId),
          name,
          settings,
          dkim_selector: this.services.config.DKIM_SELECTOR,
          dkim_public_key: keys.publicKey,
          dkim_private_key_enc: keys.privateKeyEnc,
          is_verified: trust,
          trusted: trust,
        });
        await tx.flush();
        return domain;
      }),
    );
  }

  async updateSettings(auth: Actor, args: DomainSettingsArgs): Promise<Domain> {
    const domain = await this.get(auth, args.domain_id);
    const next = { ...domain.settings };
    for (const key of Object.keys(DEFAULT_DOMAIN_SETTINGS) as (keyof DomainSettings)[]) {
      const value = args[key as keyof DomainSettingsArgs];
      if (value !== undefined && value !== null) (next as Record<string, unknown>)[key] = value;
    }
    // A moved CNAME has to be published and checked again.
    if (next.return_path_subdomain !== domain.settings.return_path_subdomain) {
      domain.rp_cname = null;
      domain.is_dns_active = false;
    }
    if (next.custom_tracking_subdomain !== domain.settings.custom_tracking_subdomain) {
      domain.tracking = null;
      domain.is_cname_verified = false;
    }
    if (next.inbound_routing_subdomain !== domain.settings.inbound_routing_subdomain) domain.mx = null;
    const unpaused = domain.settings.send_paused && !next.send_paused;
    domain.settings = next;
    await this.em.transactional(async (tx) => {
      await tx.flush();
      // Messages held while sending was paused go out now, queued with the change that releases them.
      if (unpaused && this.services.boss) await domainSendingResumed.emit(tx, { domain_id: domain.id }, { boss: this.services.boss });
    });
    return domain;
  }

  async remove(auth: Actor, id: string): Promise<boolean> {
    const domain = await this.get(auth, id);
    await this.em.remove(domain).flush();
    return true;
  }

  async verify(auth: Actor, id: string) {
    const domain = await this.get(auth, id);
    const result = await recheck(this.em, this.services, domain);
    return {
      message: domain.is_verified ? 'The domain is verified.' : 'The domain is not verified yet: publish the missing DNS records.',
      data: result,
    };
  }
}

/** Re-reads a domain's DNS and stores what it found (used by /verify and the cron job). */
export async function recheck(em: EntityManager, services: Pick<AppServices, 'config' | 'dns'>, domain: Domain) {
  const result = await checkDns(services.dns, domain, services.config);
  applyCheck(domain, result);
  await em.flush();
  return result;
}
