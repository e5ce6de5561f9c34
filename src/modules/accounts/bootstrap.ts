import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import type { Config } from '../../config/index.js';
import { Account } from './account.entity.js';
import { AccountService } from './account.service.js';

/**
 * First start on an empty database: one account and a full-scope API token. The secret is
 * ADMIN_TOKEN when set; otherwise it is generated, printed once and written to
 * DATA_DIR/admin-token (mode 0600). Safe to run from several processes: an advisory lock
 * makes one of them do it.
 */
export async function bootstrapFirstAccount(em: EntityManager, config: Config, log: Logger): Promise<void> {
  await em.transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(727001)');
    if ((await tx.count(Account, {})) > 0) return;
    const { account, secret } = await new AccountService(tx).create({
      name: 'Default account',
      admin_email: config.ADMIN_EMAIL ?? null,
      secret: config.ADMIN_TOKEN,
    });
    if (config.ADMIN_TOKEN) {
      log.info({ account_id: account.id }, 'created the first account; its admin token is ADMIN_TOKEN');
      return;
    }
    const file = path.resolve(config.DATA_DIR, 'admin-token');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    // Printed once, on purpose: this is the only place the generated secret appears.
    process.stdout.write(`\nFirst start: created account ${account.id}.\nAdmin API token (shown once, also saved to ${file}):\n\n  ${secret}\n\n`);
  });
}
