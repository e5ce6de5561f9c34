import { Migration } from '@mikro-orm/migrations';

/** TLS sessions counted for the recipient domains' TLS reports (src/modules/tls-reports). */
export class Migration20261201020000_tls_sessions extends Migration {

  override name = 'Migration20261201020000_tls_sessions';

  override up(): void | Promise<void> {
    this.addSql(`create table "tls_sessions" ("day" date not null, "policy_domain" varchar(253) not null, "policy_type" varchar(20) not null, "mx_host" varchar(253) not null, "result_type" varchar(40) not null, "policy_string" jsonb not null, "count" int not null, constraint "tls_sessions_pkey" primary key ("day", "policy_domain", "policy_type", "mx_host", "result_type"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "tls_sessions" cascade;`);
  }

}
