import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Auth } from '../../graphql/context.js';
import { errors, msg } from '../../graphql/errors.js';
import { offsetOf, pageMeta } from '../../graphql/pagination.js';
import { findOwned, visibleTo } from '../../db/scoped.js';
import { encrypt } from '../../lib/secrets.js';
import type { AppServices } from '../../services.js';
import { Account } from '../accounts/account.entity.js';
import { Recipient } from '../recipients/recipient.entity.js';
import { applyCheck, checkDns } from './dns-check.js';
import { DEFAULT_DOMAIN_SETTINGS, Domain, type DomainSettings } from './domain.entity.js';
import type { CreateDomainArgs, DomainListArgs, DomainRecipientsArgs, DomainSettingsArgs } from './domain.inputs.js';
import { takenIfDuplicate } from '../../db/unique.js';
import { releasePaused } from '../sending/release.js';

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

export class DomainService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: Pick<AppServices, 'config' | 'dns'> & Partial<Pick<AppServices, 'boss'>>,
  ) {}

  async list(auth: Auth, args: DomainListArgs) {
    const where: Record<string, unknown> = { ...visibleTo(auth, null) };
    if (auth.domainId) where.id = auth.domainId;
    if (args.verified != null) where.is_verified = args.verified;
    const [rows, total] = await this.em.findAndCount(Domain, where, {
      orderBy: { created_at: 'desc', id: 'desc' },
      limit: args.limit,
      offset: offsetOf(args),
    });
    return { rows, meta: pageMeta(args, rows.length, total) };
  }

  async get(auth: Auth, id: string): Promise<Domain> {
    const domain = await findOwned(this.em, Domain, auth, { id });
    if (auth.domainId && auth.domainId !== domain.id) throw errors.forbidden('This token is limited to another domain.');
    return domain;
  }

  async create(auth: Auth, args: CreateDomainArgs): Promise<Domain> {
    if (auth.domainId) throw errors.forbidden('This token is limited to one domain.');
    const name = args.name.trim();
    if (name !== name.toLowerCase()) throw errors.invalid('name', 'The name must be lowercase.');
    if (!DOMAIN_NAME.test(name)) throw errors.invalid('name', 'The name must be a valid domain name.');
    if (await this.em.count(Domain, { name })) throw errors.invalid('name', msg.taken('name'));
    // Only a definite NXDOMAIN refuses, and DOMAIN_REQUIRE_DNS=false skips the check for
    // air-gapped installs whose resolver answers NXDOMAIN for everything outside.
    if (this.services.config.DOMAIN_REQUIRE_DNS && (await this.services.dns.exists(name)) === 'nxdomain') {
      throw errors.invalid('name', 'The name must be a resolvable domain.');
    }
    const keys = await dkimKeyPair(this.services.config.APP_SECRET);
    const settings: DomainSettings = { ...DEFAULT_DOMAIN_SETTINGS };
    if (args.return_path_subdomain) settings.return_path_subdomain = args.return_path_subdomain.toLowerCase();
    if (args.custom_tracking_subdomain) settings.custom_tracking_subdomain = args.custom_tracking_subdomain.toLowerCase();
    if (args.inbound_routing_subdomain) settings.inbound_routing_subdomain = args.inbound_routing_subdomain.toLowerCase();
    const domain = this.em.create(Domain, {
      account: this.em.getReference(Account, auth.accountId),
      name,
      settings,
      dkim_selector: this.services.config.DKIM_SELECTOR,
      dkim_public_key: keys.publicKey,
      dkim_private_key_enc: keys.privateKeyEnc,
    } as never);
    // Two concurrent requests for one name: the unique index decides.
    await takenIfDuplicate('name', () => this.em.flush());
    return domain;
  }

  async updateSettings(auth: Auth, args: DomainSettingsArgs): Promise<Domain> {
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
      if (unpaused && this.services.boss) await releasePaused(tx, this.services.boss, domain.id);
    });
    return domain;
  }

  async remove(auth: Auth, id: string): Promise<boolean> {
    const domain = await this.get(auth, id);
    await this.em.remove(domain).flush();
    return true;
  }

  async verify(auth: Auth, id: string) {
    const domain = await this.get(auth, id);
    const result = await recheck(this.em, this.services, domain);
    return {
      message: domain.is_verified ? 'The domain is verified.' : 'The domain is not verified yet: publish the missing DNS records.',
      data: result,
    };
  }

  async recipients(auth: Auth, args: DomainRecipientsArgs) {
    const domain = await this.get(auth, args.domain_id);
    const [rows, total] = await this.em.findAndCount(
      Recipient,
      { domain, deleted_at: null },
      { orderBy: { created_at: 'desc', id: 'desc' }, limit: args.limit, offset: offsetOf(args) },
    );
    return { rows, meta: pageMeta(args, rows.length, total) };
  }
}

/** Re-reads a domain's DNS and stores what it found (used by /verify and the cron job). */
export async function recheck(em: EntityManager, services: Pick<AppServices, 'config' | 'dns'>, domain: Domain) {
  const result = await checkDns(services.dns, domain, services.config);
  applyCheck(domain, result);
  await em.flush();
  return result;
}
