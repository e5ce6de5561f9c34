import type { EntityManager } from '@mikro-orm/postgresql';
import { type Actor, domainsOf, isDomainLimited } from '../../core/actor.js';
import { errors } from '../../core/errors.js';
import { offsetOf, pageMeta, type PageMeta, type PageQuery } from '../../core/page.js';
import { PERMISSION_SCOPES, scopeSatisfied } from '../../core/scopes.js';
import { SandboxMailRepository, type SandboxMailDetailRow, type SandboxMailReach, type SandboxMailRow } from './sandbox-mail.repository.js';

/**
 * Who reads each kind of mail the service writes about an account, by the scope of the work it
 * is about: an address to confirm goes to those who manage such addresses, a notice to those who
 * manage what it reports. Kinds not listed (a password reset, which carries no account anyway)
 * are never shown. An invitation's link joins the account with the role it names, so its mail
 * goes only to callers who hold everything a role can: one who held less would grant itself more
 * by accepting it (test/console/sandbox-mail.test.ts).
 */
const READERS: Readonly<Record<string, string | 'everything'>> = {
  invite: 'everything',
  identity_confirmation: 'sender_identity_full',
  inbound_forward_confirmation: 'inbounds_full',
  webhook_failing: 'webhooks_full',
  blocklist_listed: 'blocklist_monitoring_full',
};

/** The scopes the permissions of any role grant together: what an account admin holds. */
const EVERY_GRANT = [...new Set(Object.values(PERMISSION_SCOPES).flat())];

function holdsEverything(auth: Actor): boolean {
  return !isDomainLimited(auth) && !auth.templateIds?.length && EVERY_GRANT.every((s) => scopeSatisfied(auth.scopes, s));
}

function reachOf(auth: Actor): SandboxMailReach {
  const kinds = Object.entries(READERS)
    .filter(([, needs]) => (needs === 'everything' ? holdsEverything(auth) : scopeSatisfied(auth.scopes, needs)))
    .map(([kind]) => kind);
  return { accountId: auth.accountId, kinds, domainIds: domainsOf(auth) };
}

/**
 * The sandbox's mail from the service itself (MAIL_TRANSPORT=capture): invitations, addresses to
 * confirm and notices about the account, which would otherwise never reach anyone. A
 * domain-limited caller reads its domains' only.
 */
export class SandboxMailService {
  constructor(private readonly em: EntityManager) {}

  async list(auth: Actor, args: PageQuery): Promise<{ rows: SandboxMailRow[]; meta: PageMeta }> {
    const reach = reachOf(auth);
    if (!reach.kinds.length) return { rows: [], meta: pageMeta(args, 0, 0) };
    const { rows, total } = await new SandboxMailRepository(this.em).page(reach, { limit: args.limit, offset: offsetOf(args) });
    return { rows: rows.map((r) => ({ ...r, created_at: new Date(r.created_at) })), meta: pageMeta(args, rows.length, total) };
  }

  /** One mail with its content; not found when the caller may not read it. */
  async get(auth: Actor, id: string): Promise<SandboxMailDetailRow> {
    const reach = reachOf(auth);
    const row = reach.kinds.length ? await new SandboxMailRepository(this.em).one(reach, id) : null;
    if (!row) throw errors.notFound();
    return { ...row, created_at: new Date(row.created_at) };
  }
}
