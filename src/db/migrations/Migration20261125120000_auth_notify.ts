import { Migration } from '@mikro-orm/migrations';

/**
 * Every process keeps authenticated tokens for a few seconds so that a request does not read its
 * token (tokens/token.cache.ts). These triggers tell every process, by NOTIFY on the pubsub
 * channel (lib/pubsub.ts, topic `auth_changed`), when what it keeps changed: a token updated
 * (paused, renamed, its scopes or domain changed) or deleted (by the API, or by the cascade of its
 * domain's or account's deletion), or an account's plan, which sets its tokens' rate limits. They
 * fire whatever made the change (a request, the operator, SQL by hand), and PostgreSQL delivers
 * the NOTIFY when, and only if, the transaction commits.
 */
export class Migration20261125120000_auth_notify extends Migration {

  override name = 'Migration20261125120000_auth_notify';

  override up(): void | Promise<void> {
    // The trigger's argument names the key the notice carries: token_id (api_tokens) or account_id (accounts).
    this.addSql(`create function postbox_auth_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('postbox_events', json_build_object(
          'topic', 'auth_changed', 'detail', json_build_object(tg_argv[0], old.id))::text);
        return null;
      end $$;`);
    this.addSql(`create trigger api_tokens_auth_changed after update or delete on "api_tokens"
      for each row execute function postbox_auth_changed('token_id');`);
    this.addSql(`create trigger accounts_auth_changed after update of "plan" on "accounts"
      for each row when (old.plan is distinct from new.plan) execute function postbox_auth_changed('account_id');`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger accounts_auth_changed on "accounts";`);
    this.addSql(`drop trigger api_tokens_auth_changed on "api_tokens";`);
    this.addSql(`drop function postbox_auth_changed();`);
  }

}
