import { Migration } from '@mikro-orm/migrations';

/**
 * Every process keeps accounts' plans and sending domains for a few seconds to accept sends
 * without reading them (sending/sender.cache.ts). These triggers tell every process, by NOTIFY on
 * the pubsub channel (lib/pubsub.ts, topic `sender_changed`), when what it keeps changed: a domain
 * added, deleted, verified, trusted, paused or resumed (its settings), an account's plan. They
 * fire whatever made the change (a request, the DNS check job, the operator, SQL by hand), and
 * PostgreSQL delivers the NOTIFY when, and only if, the transaction commits.
 */
export class Migration20261125110000_sender_notify extends Migration {

  override name = 'Migration20261125110000_sender_notify';

  override up(): void | Promise<void> {
    // The trigger's argument names the column holding the account id (id for accounts).
    this.addSql(`create function postbox_sender_changed() returns trigger language plpgsql as $$
      declare r record;
      begin
        if tg_op = 'DELETE' then r := old; else r := new; end if;
        perform pg_notify('postbox_events', json_build_object(
          'topic', 'sender_changed', 'detail', json_build_object('account_id', to_jsonb(r) ->> tg_argv[0]))::text);
        return null;
      end $$;`);
    this.addSql(`create trigger domains_sender_changed after insert or delete on "domains"
      for each row execute function postbox_sender_changed('account_id');`);
    this.addSql(`create trigger domains_sender_updated after update on "domains"
      for each row when (old.is_verified is distinct from new.is_verified or old.trusted is distinct from new.trusted
        or old.settings is distinct from new.settings or old.name is distinct from new.name
        or old.account_id is distinct from new.account_id)
      execute function postbox_sender_changed('account_id');`);
    this.addSql(`create trigger accounts_sender_updated after update of "plan" on "accounts"
      for each row when (old.plan is distinct from new.plan) execute function postbox_sender_changed('id');`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger accounts_sender_updated on "accounts";`);
    this.addSql(`drop trigger domains_sender_updated on "domains";`);
    this.addSql(`drop trigger domains_sender_changed on "domains";`);
    this.addSql(`drop function postbox_sender_changed();`);
  }

}
