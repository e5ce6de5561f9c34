import { isIP } from 'node:net';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findOwned } from '../../db/scoped.js';
import { newId } from '../../lib/ids.js';
import { encrypt, randomSecret } from '../../lib/secrets.js';
import { enqueue } from '../../jobs/boss.js';
import type { AppServices } from '../../core/services.js';
import { Account } from '../accounts/account.entity.js';
import { Domain } from '../domains/domain.entity.js';
import { refusal } from '../../lib/public-address.js';
import { webhookUrlProblem } from '../../lib/webhook-http.js';
import { compareIps, parseAddress, type ParsedAddress } from './blocklist.address.js';
import { BlocklistHit, BlocklistMonitor, type MonitorForward } from './blocklist.entity.js';
import type { CreateMonitorArgs, MonitorListArgs, UpdateMonitorArgs } from './blocklist.inputs.js';
import { blocklistInitialCheckJob } from './blocklist.job.js';
import { type Actor, domainsOf } from '../../core/actor.js';
import { errors, msg, FieldErrorBag } from '../../core/errors.js';

type Services = Pick<AppServices, 'boss' | 'config'>;

/** What the single-monitor response needs besides the monitor. */
export interface MonitorDetail {
  monitor: BlocklistMonitor;
  owner: BlocklistMonitor;
  hits?: BlocklistHit[];
  children?: BlocklistMonitor[];
}

const CHILD_MESSAGE = 'A monitor of an IP range is changed through the range itself.';
const DOMAIN_TOKEN_MESSAGE = 'This caller is limited to some domains; it can only monitor those domains.';

export class BlocklistService {
  constructor(
    private readonly em: EntityManager,
    private readonly services: Services,
  ) {}

  /**
   * A domain-limited caller (a token's one domain, a user's one or several) reaches only the
   * monitors of its own domains' names; null for the whole account.
   */
  private async reachableNames(auth: Actor): Promise<string[] | null> {
    const own = domainsOf(auth);
    if (!own) return null;
    const domains = await this.em.find(Domain, { id: { $in: [...own] }, account: auth.accountId });
    return domains.map((d) => d.name);
  }

  private async assertReach(auth: Actor, monitor: BlocklistMonitor): Promise<void> {
    const names = await this.reachableNames(auth);
    if (names !== null && (monitor.type !== 'domain' || !names.includes(monitor.address))) throw errors.forbidden(DOMAIN_TOKEN_MESSAGE);
  }

  async list(auth: Actor, args: MonitorListArgs): Promise<BlocklistMonitor[]> {
    const where: Record<string, unknown> = { account: auth.accountId, parent: null };
    const names = await this.reachableNames(auth);
    if (names !== null) Object.assign(where, { type: 'domain', address: { $in: names } });
    if (args.query) {
      const like = `%${args.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.$or = [{ name: { $ilike: like } }, { address: { $ilike: like } }];
    }
    const dir = args.order === 'asc' ? 'asc' : 'desc';
    return this.em.find(BlocklistMonitor, where, {
      orderBy: { [args.sort_by ?? 'created_at']: dir, id: dir },
      limit: args.limit,
      offset: (args.page - 1) * args.limit,
    });
  }

  async get(auth: Actor, id: string): Promise<MonitorDetail> {
    const monitor = await findOwned(this.em, BlocklistMonitor, auth, { id }, ['parent']);
    await this.assertReach(auth, monitor);
    return this.detail(monitor);
  }

  async detail(monitor: BlocklistMonitor): Promise<MonitorDetail> {
    const owner = monitor.parent ?? monitor;
    if (monitor.cidr) {
      const children = await this.em.find(BlocklistMonitor, { parent: monitor.id }, { orderBy: { created_at: 'asc', id: 'asc' } });
      return { monitor, owner, children: sortByIp(children) };
    }
    const hits = await this.em.find(BlocklistHit, { monitor: monitor.id }, { orderBy: { listed_at: 'desc', id: 'asc' } });
    return { monitor, owner, hits };
  }

  async create(auth: Actor, args: CreateMonitorArgs): Promise<MonitorDetail> {
    const bag = new FieldErrorBag();
    const result = parseAddress(args.address);
    if ('error' in result) bag.add('address', result.error);
    this.checkNotify(bag, args.notify ?? false, args.notify_email ?? null, args.notify_address ?? null, args);
    bag.throwIfAny();
    const parsed = result as ParsedAddress;

    const names = await this.reachableNames(auth);
    if (names !== null && (parsed.kind !== 'domain' || !names.includes(parsed.address))) throw errors.forbidden(DOMAIN_TOKEN_MESSAGE);
    if (parsed.kind === 'domain') {
      const domain = await this.em.findOne(Domain, { name: parsed.address, account: auth.accountId, is_verified: true });
      if (!domain) bag.add('address', 'The address must be a verified sending domain of the account.');
    }
    const addresses = parsed.kind === 'cidr' ? parsed.ips : [parsed.address];
    const taken = await this.em.count(BlocklistMonitor, { account: auth.accountId, address: { $in: addresses } });
    if (taken) bag.add('address', msg.taken('address'));
    bag.throwIfAny();

    return this.em.transactional(async (em) => {
      const account = em.getReference(Account, auth.accountId);
      const first = parsed.kind === 'cidr' ? parsed.ips[0] : parsed.address;
      const monitor = em.create(BlocklistMonitor, {
        account,
        name: args.name?.trim() || (parsed.kind === 'cidr' ? parsed.cidr : first),
        address: first,
        cidr: parsed.kind === 'cidr' ? parsed.cidr : null,
        type: parsed.kind === 'domain' ? 'domain' : 'ip',
        notify: args.notify ?? false,
        notify_email: args.notify_email ?? null,
        notify_address: args.notify_address ?? null,
        forwards: this.forwards([], args.notify_email ?? null, args.notify_address ?? null),
        children_count: parsed.kind === 'cidr' ? parsed.ips.length : 0,
      });
      const children =
        parsed.kind === 'cidr'
          ? parsed.ips.map((ip) => em.create(BlocklistMonitor, { account, parent: monitor, name: ip, address: ip, type: 'ip' }))
          : undefined;
      await em.flush();
      await enqueue(em, this.services.boss, blocklistInitialCheckJob, { monitor_id: monitor.id });
      return children ? { monitor, owner: monitor, children } : { monitor, owner: monitor, hits: [] };
    });
  }

  async update(auth: Actor, args: UpdateMonitorArgs): Promise<MonitorDetail> {
    const monitor = await findOwned(this.em, BlocklistMonitor, auth, { id: args.monitor_id }, ['parent']);
    await this.assertReach(auth, monitor);
    if (monitor.parent) throw errors.invalid('monitor_id', CHILD_MESSAGE);
    const notify = args.notify ?? monitor.notify;
    const email = args.notify_email ?? monitor.notify_email;
    const url = args.notify_address ?? monitor.notify_address;
    const bag = new FieldErrorBag();
    if (args.name != null && !args.name.trim()) bag.add('name', msg.required('name'));
    this.checkNotify(bag, notify, email, url, args);
    bag.throwIfAny();
    if (args.name != null) monitor.name = args.name.trim();
    monitor.notify = notify;
    monitor.forwards = this.forwards(monitor.forwards, email, url);
    monitor.notify_email = email;
    monitor.notify_address = url;
    await this.em.flush();
    return this.detail(monitor);
  }

  async remove(auth: Actor, id: string): Promise<boolean> {
    const monitor = await findOwned(this.em, BlocklistMonitor, auth, { id }, ['parent']);
    await this.assertReach(auth, monitor);
    if (monitor.parent) throw errors.invalid('monitor_id', CHILD_MESSAGE);
    // Children and hits go with it (ON DELETE CASCADE).
    await this.em.nativeDelete(BlocklistMonitor, { id: monitor.id });
    return true;
  }

  /** notify needs somewhere to go; the values given must be usable. */
  private checkNotify(
    bag: FieldErrorBag,
    notify: boolean,
    email: string | null,
    url: string | null,
    given: { notify_email?: string | null; notify_address?: string | null },
  ) {
    if (notify && !email && !url) {
      bag.add('notify_email', msg.requiredWithout('notify_email', 'notify_address'));
      bag.add('notify_address', msg.requiredWithout('notify_address', 'notify_email'));
    }
    const value = given.notify_address;
    if (value != null && !bag.has('notify_address')) {
      const host = URL.canParse(value) ? new URL(value).hostname.replace(/^\[|\]$/g, '') : '';
      if (webhookUrlProblem(value)) bag.add('notify_address', msg.url('notify_address'));
      else if (!this.services.config.WEBHOOK_ALLOW_PRIVATE && isIP(host) && refusal(host)) {
        bag.add('notify_address', 'The notify address must point to a public address.');
      }
    }
  }

  /** Keeps a forward (its id and secret) while its value stays the same. */
  private forwards(current: MonitorForward[], email: string | null, url: string | null): MonitorForward[] {
    const out: MonitorForward[] = [];
    const keep = (type: MonitorForward['type'], value: string) => current.find((f) => f.type === type && f.value === value);
    if (email) out.push(keep('email', email) ?? { id: newId(), type: 'email', value: email, secret_enc: null });
    if (url) {
      out.push(
        keep('webhook', url) ?? {
          id: newId(),
          type: 'webhook',
          value: url,
          secret_enc: encrypt(this.services.config.APP_SECRET, randomSecret()),
        },
      );
    }
    return out;
  }
}

export function sortByIp(monitors: BlocklistMonitor[]): BlocklistMonitor[] {
  return [...monitors].sort((a, b) => compareIps(a.address, b.address));
}
