import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../../config/index.js';
import { Account } from '../accounts/account.entity.js';
import { DomainRepository } from '../domains/domain.repository.js';
import { ownerClaimLink } from '../users/owner.service.js';
import { OperatorService } from './operator.service.js';
import { OperatorRepository } from './operator.repository.js';

/**
 * First start on an empty database: one account, on DEFAULT_PLAN with
 * DEFAULT_VERIFICATION_CREDITS, a full-scope API token, and its owner. The token's secret is
 * ADMIN_TOKEN when set; otherwise it is generated, printed once and written to
 * DATA_DIR/admin-token (mode 0600). The owner is an admin user with ADMIN_EMAIL when set;
 * otherwise a link to claim the account is printed and written to DATA_DIR/owner-link (0600).
 * Safe to run from several processes: an advisory lock makes one of them do it.
 */
export async function bootstrapFirstAccount(em: EntityManager, config: Config, log: Logger): Promise<void> {
  await em.transactional(async (tx) => {
    await new OperatorRepository(tx).lockFirstStart();
    if ((await tx.count(Account, {})) > 0) return;
    const { account, secret } = await new OperatorService(tx).createAccount({
      name: 'Default account',
      admin_email: config.ADMIN_EMAIL ?? null,
      secret: config.ADMIN_TOKEN,
      plan: config.DEFAULT_PLAN,
      verification_credits: config.DEFAULT_VERIFICATION_CREDITS,
    });
    log.info({ account_id: account.id, plan: config.DEFAULT_PLAN }, 'created the first account');
    const ownerLink = config.ADMIN_EMAIL ? null : ownerClaimLink(config, account.id);
    const ownerFile = ownerLink && keep(config, 'owner-link', ownerLink);
    if (ownerFile) log.info({ account_id: account.id, file: ownerFile }, 'the first account has no owner yet: open the owner link to claim it');
    // A set ADMIN_TOKEN means automation (compose, tests): the log and the files say it all. A
    // generated one is printed once, on purpose: this is the only place its secret appears.
    if (config.ADMIN_TOKEN) return;
    const file = keep(config, 'admin-token', secret);
    const lines = [`First start: created account ${account.id} (plan ${config.DEFAULT_PLAN}).`, `Admin API token (shown once, also saved to ${file}):`, '', `  ${secret}`, ''];
    if (ownerFile) lines.push(`Claim the account as its owner (also saved to ${ownerFile}):`, '', `  ${ownerLink}`, '');
    process.stdout.write(`\n${lines.join('\n')}\n`);
  });
}

/** A secret of the first start, kept in DATA_DIR for its owner only. */
function keep(config: Config, name: string, value: string): string {
  const file = path.resolve(config.DATA_DIR, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${value}\n`, { mode: 0o600 });
  return file;
}

/**
 * Leaving the sandbox: with DOMAIN_VERIFICATION=dns, domains that were only trusted are no longer
 * verified. The domain check (cron, or verify) verifies them again once their DNS records are
 * found, which also clears `trusted`.
 */
export async function settleTrustedDomains(em: EntityManager, config: Config, log: Logger): Promise<void> {
  if (config.DOMAIN_VERIFICATION !== 'dns') return;
  const settled = await new DomainRepository(em).unverifyTrusted();
  if (settled) log.warn({ domains: settled }, 'domains trusted by the sandbox are unverified until their DNS records are found');
}
