import { Migration } from '@mikro-orm/migrations';

/**
 * Mail the service writes about an account (an invitation, an address to confirm, a notice) says
 * whose it is, so the sandbox inbox can show it to the account's people who may act on it
 * (modules/email-log/sandbox-mail.service.ts). Password resets carry no account: only their addressee
 * may read them.
 */
export class Migration20261129010000_captured_mail_account extends Migration {

  override name = 'Migration20261129010000_captured_mail_account';

  override up(): void | Promise<void> {
    this.addSql(`alter table "captured_mails" add column "account_id" varchar(32) null, add column "domain_id" varchar(32) null;`);
    this.addSql(`create index "captured_mails_account_id_created_at_index" on "captured_mails" ("account_id", "created_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "captured_mails_account_id_created_at_index";`);
    this.addSql(`alter table "captured_mails" drop column "account_id", drop column "domain_id";`);
  }
}
