import { Migration } from '@mikro-orm/migrations';

/**
 * The last TOTP time step a user logged in with: a code works for one login only (RFC 6238 5.2),
 * so a code seen over a shoulder or replayed from a log cannot open a second session.
 */
export class Migration20261125200500_totp_last_step extends Migration {

  override name = 'Migration20261125200500_totp_last_step';

  override up(): void | Promise<void> {
    this.addSql(`alter table "account_users" add column "totp_last_step" bigint null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "account_users" drop column "totp_last_step";`);
  }

}
