import type { EntityManager } from '@mikro-orm/postgresql';
import { domainsOf, type Actor } from '../../core/actor.js';
import { scopeSatisfied } from '../../core/scopes.js';
import { OverviewRepository, type DomainChoiceRow } from './overview.repository.js';
import type { AccountUsage, Overview, SetupKey, SetupStep, WaitingEmails } from './overview.type.js';
import { Account } from '../accounts/account.entity.js';
import { RetentionService } from '../retention/retention.service.js';
import { QuotaService } from '../quota/quota.service.js';
import { toApiQuota } from '../quota/quota.type.js';
import type { Config } from '../../config/index.js';
import type { Plan } from '../../config/plans.js';

const HOUR_MS = 3_600_000;
/** How far back waiting emails are counted: a schedule reaches 3 days ahead (SPEC.md send_at). */
const WAITING_WINDOW_MS = 72 * HOUR_MS;
/** The latest emails of that window counted at most, so the read stays bounded for a large sender. */
export const WAITING_CAP = 50_000;
const FAILING_WINDOW_MS = 24 * HOUR_MS;
/** The domains a picker offers at most (the console's pages take one domain at a time). */
export const DOMAIN_CHOICES = 500;
/**
 * Scopes over data of a domain: a caller holding one may know the names of the domains it
 * reaches, to choose among them (a user who reads activity need not manage domains).
 */
const DOMAIN_AREAS = [
  'domains_read', 'activity_read', 'analytics_read', 'email_full', 'webhooks_full', 'templates_full', 'suppressions_read',
  'inbounds_full', 'recipients_read', 'sender_identity_read', 'smtp_users_read', 'dmarc_monitoring_read',
];

/**
 * The console's reads across modules for a caller: each figure and step only where the caller
 * holds the scope that reads it (null otherwise), and counted within the caller's domains.
 */
export class OverviewService {
  constructor(
    private readonly em: EntityManager,
    private readonly config: Config,
  ) {}

  /** The overview's own part; its other fields are read only when asked for (the resolver's field resolvers). */
  get(): Pick<Overview, 'sandbox'> {
    return { sandbox: this.config.MAIL_TRANSPORT === 'capture' };
  }

  /** The setup steps, each null without the scope that reads what it counts. One query after another: one pooled connection. */
  async setup(auth: Actor): Promise<SetupStep[]> {
    const repo = new OverviewRepository(this.em);
    const domains = domainsOf(auth);
    const holds = (scope: string) => scopeSatisfied(auth.scopes, scope);
    const domain = holds('domains_read') ? await repo.domains(auth.accountId, domains) : null;
    const done: Record<SetupKey, boolean | null> = {
      domain: domain?.added ?? null,
      verified: domain?.verified ?? null,
      token: holds('tokens_full') ? await repo.hasToken(auth.accountId) : null,
      email: holds('activity_read') ? await repo.hasSent(auth.accountId, domains) : null,
      webhook: holds('webhooks_full') ? await repo.hasWebhook(auth.accountId, domains) : null,
    };
    return (Object.keys(done) as SetupKey[]).map((key) => ({ key, done: done[key] }));
  }

  waiting(auth: Actor, now = new Date()): Promise<WaitingEmails> | null {
    if (!scopeSatisfied(auth.scopes, 'activity_read')) return null;
    return new OverviewRepository(this.em).waiting(auth.accountId, domainsOf(auth), new Date(now.getTime() - WAITING_WINDOW_MS), WAITING_CAP);
  }

  webhooksFailing(auth: Actor, now = new Date()): Promise<number> | null {
    if (!scopeSatisfied(auth.scopes, 'webhooks_full')) return null;
    return new OverviewRepository(this.em).failingWebhooks(auth.accountId, domainsOf(auth), new Date(now.getTime() - FAILING_WINDOW_MS));
  }

  /** The plan and usage page: each figure only where the caller holds the scope that reads it. */
  async usage(auth: Actor, unwrittenQuota: number): Promise<AccountUsage> {
    const { config } = this;
    const account = await this.em.findOneOrFail(Account, { id: auth.accountId });
    const days = (await new RetentionService(this.em, config).daysByPlan())[account.plan as Plan];
    const holds = (scope: string) => scopeSatisfied(auth.scopes, scope);
    const quota = holds('tokens_full') ? toApiQuota(await new QuotaService(this.em, config).status(auth, unwrittenQuota)) : null;
    return {
      plan: account.plan,
      retention_days: days,
      verification_credits: holds('email_verification_read') ? account.verification_credits : null,
      api_quota: quota,
    };
  }

  /** The domains the caller reaches, for a page's domain picker; none for a caller with no scope over a domain's data. */
  async domainChoices(auth: Actor): Promise<DomainChoiceRow[]> {
    if (!DOMAIN_AREAS.some((scope) => scopeSatisfied(auth.scopes, scope))) return [];
    const rows = await new OverviewRepository(this.em).domainChoices(auth.accountId, domainsOf(auth), DOMAIN_CHOICES);
    return rows.map((r) => ({ ...r, created_at: new Date(r.created_at), updated_at: new Date(r.updated_at) }));
  }
}
