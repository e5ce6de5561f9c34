import type { EntityManager } from '@mikro-orm/postgresql';
import { enqueue } from '../../jobs/boss.js';
import { newId } from '../../lib/ids.js';
import type { AppServices } from '../../core/services.js';
import { systemMailJob } from '../mail/system-mail.job.js';
import type { BlocklistMonitor } from './blocklist.entity.js';
import { blocklistWebhookJob } from './blocklist.job.js';

export interface NewListing {
  blocklist_host: string;
  address: string;
  listed_at: Date;
}

/**
 * The webhook forward's JSON body (documented in docs/api-behaviour.md, "Blocklist alerts"):
 * `{type: "blocklist_monitor.listed", created_at, data: {monitor: {id, name, address, type},
 * listings: [{blocklist_host, address, listed_at}]}}`, signed like every webhook (src/lib/webhook-signature.ts).
 */
export function listedBody(monitor: BlocklistMonitor, listings: NewListing[], at: Date): string {
  return JSON.stringify({
    type: 'blocklist_monitor.listed',
    created_at: at.toISOString(),
    data: {
      monitor: { id: monitor.id, name: monitor.name, address: monitor.cidr ?? monitor.address, type: monitor.type },
      listings: listings.map((l) => ({ blocklist_host: l.blocklist_host, address: l.address, listed_at: l.listed_at.toISOString() })),
    },
  });
}

function mailText(monitor: BlocklistMonitor, listings: NewListing[]): { subject: string; text: string; html: string } {
  const what = monitor.cidr ?? monitor.address;
  const lines = listings.map((l) => `- ${l.address} on ${l.blocklist_host} (since ${l.listed_at.toISOString()})`);
  const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return {
    subject: `Blocklist alert: ${what} is listed`,
    text: [`Your blocklist monitor "${monitor.name}" (${what}) found new listings:`, '', ...lines, ''].join('\n'),
    html:
      `<p>Your blocklist monitor "${esc(monitor.name)}" (${esc(what)}) found new listings:</p><ul>` +
      listings.map((l) => `<li>${esc(l.address)} on ${esc(l.blocklist_host)} (since ${l.listed_at.toISOString()})</li>`).join('') +
      '</ul>',
  };
}

/**
 * Queues one mail per email forward and one signed POST per webhook forward, in the check's
 * transaction: the alert exists if and only if the listing it reports was recorded.
 */
export async function notifyListings(
  em: EntityManager,
  services: Pick<AppServices, 'boss' | 'config'>,
  monitor: BlocklistMonitor,
  listings: NewListing[],
  at: Date,
): Promise<void> {
  for (const f of monitor.forwards) {
    if (f.type === 'email') {
      await enqueue(em, services.boss, systemMailJob, { to: f.value, from: services.config.MAIL_FROM, ...mailText(monitor, listings), kind: 'blocklist_listed', account_id: monitor.account.id });
    } else {
      await enqueue(em, services.boss, blocklistWebhookJob, {
        monitor_id: monitor.id,
        forward_id: f.id,
        delivery_id: `msg_${newId(24)}`,
        at: at.toISOString(),
        body: listedBody(monitor, listings, at),
      });
    }
  }
}
