import type { EntityManager } from '@mikro-orm/postgresql';
import type { Dns } from '../../lib/dns.js';
import type { AppServices } from '../../core/services.js';
import { reverseLabel } from './blocklist.address.js';
import { BlocklistHit, BlocklistMonitor } from './blocklist.entity.js';
import { notifyListings, type NewListing } from './blocklist.notify.js';

/** Listed, not listed, or no usable answer (the zone then keeps its previous state). */
export type ZoneAnswer = 'listed' | 'clear' | 'unknown';

export function zonesOf(setting: string): string[] {
  return setting
    .split(',')
    .map((z) => z.trim().toLowerCase().replace(/^\.|\.$/g, ''))
    .filter(Boolean);
}

/**
 * One DNSBL question. A listing is an A record in 127.0.0.0/8; 127.255.255.x is how Spamhaus
 * says the query itself was refused (public resolver, over quota), which is no verdict at all.
 */
export async function askZone(dns: Dns, monitor: Pick<BlocklistMonitor, 'type' | 'address'>, zone: string): Promise<ZoneAnswer> {
  const name = monitor.type === 'ip' ? `${reverseLabel(monitor.address)}.${zone}` : `${monitor.address}.${zone}`;
  let answers: string[];
  try {
    answers = await dns.a(name);
  } catch {
    return 'unknown';
  }
  if (!answers.length) return 'clear';
  if (answers.every((a) => a.startsWith('127.255.255.'))) return 'unknown';
  return answers.some((a) => a.startsWith('127.')) ? 'listed' : 'unknown';
}

function zonesFor(services: Pick<AppServices, 'config'>, type: string): string[] {
  return zonesOf(type === 'ip' ? services.config.BLOCKLIST_IP_ZONES : services.config.BLOCKLIST_DOMAIN_ZONES);
}

/** Applies one address's answers to its hits; returns the listings that are new. */
async function record(em: EntityManager, target: BlocklistMonitor, answers: Map<string, ZoneAnswer>, now: Date): Promise<NewListing[]> {
  const open = await em.find(BlocklistHit, { monitor: target.id, delisted_at: null });
  const fresh: NewListing[] = [];
  for (const [zone, answer] of answers) {
    const hit = open.find((h) => h.blocklist_host === zone);
    if (answer === 'listed') {
      if (hit) hit.last_checked_at = now;
      else {
        em.create(BlocklistHit, { monitor: target, blocklist_host: zone, address: target.address, listed_at: now, last_checked_at: now });
        fresh.push({ blocklist_host: zone, address: target.address, listed_at: now });
      }
    } else if (answer === 'clear' && hit) {
      hit.delisted_at = now;
      hit.last_checked_at = now;
    }
  }
  const stillOpen = open.filter((h) => h.delisted_at === null).length + fresh.length;
  target.blocklisted = stillOpen > 0;
  return fresh;
}

function finish(m: BlocklistMonitor, zones: number, now: Date, intervalMinutes: number) {
  m.in_progress = false;
  m.last_checks_count = zones;
  m.last_check = now;
  m.next_check = new Date(now.getTime() + intervalMinutes * 60_000);
}

/**
 * Checks a monitor (for a range: each of its children) against every configured zone, records
 * listings and delistings, and notifies the forwards of new listings, all in one transaction.
 */
export async function checkMonitor(services: AppServices, monitorId: string): Promise<void> {
  const em = services.orm.em.fork();
  const monitor = await em.findOne(BlocklistMonitor, { id: monitorId }, { populate: ['parent'] });
  if (!monitor) return; // deleted since the job was queued
  const owner = monitor.parent ?? monitor;
  const targets = monitor.cidr ? await em.find(BlocklistMonitor, { parent: monitor.id }) : [monitor];
  const zones = zonesFor(services, monitor.type);

  // DNS first, outside the transaction: the lookups take the time, the writes are quick.
  const answers = new Map<string, Map<string, ZoneAnswer>>();
  for (let i = 0; i < targets.length; i += 16) {
    await Promise.all(
      targets.slice(i, i + 16).map(async (t) => {
        const perZone = await Promise.all(zones.map(async (z) => [z, await askZone(services.dns, t, z)] as const));
        answers.set(t.id, new Map(perZone));
      }),
    );
  }

  await em.transactional(async (tx) => {
    const now = new Date();
    const fresh: NewListing[] = [];
    for (const t of targets) {
      fresh.push(...(await record(tx, t, answers.get(t.id)!, now)));
      finish(t, zones.length, now, services.config.BLOCKLIST_CHECK_INTERVAL_MINUTES);
    }
    if (monitor.cidr) {
      monitor.blocklisted = targets.some((t) => t.blocklisted);
      finish(monitor, zones.length, now, services.config.BLOCKLIST_CHECK_INTERVAL_MINUTES);
    }
    await tx.flush();
    if (fresh.length && owner.notify) await notifyListings(tx, services, owner, fresh, now);
  });
}

/**
 * Top-level monitors whose next check is due, oldest due first; also one whose initial check
 * never finished (its job gave up) an hour after it was created, so none stays in progress.
 */
export async function dueMonitors(services: AppServices, limit: number): Promise<string[]> {
  const stuck = new Date(Date.now() - 3600_000);
  const rows = await services.orm.em
    .fork()
    .find(BlocklistMonitor, {
      parent: null,
      $or: [
        { in_progress: false, next_check: { $lte: new Date() } },
        { in_progress: true, next_check: null, created_at: { $lte: stuck } },
      ],
    }, {
      fields: ['id'],
      orderBy: { next_check: 'asc' },
      limit,
    });
  return rows.map((r) => r.id);
}
