import { Migration } from '@mikro-orm/migrations';

/**
 * Each activity carries its message's `purge_after` (activity/activity.record.ts ActivityEmail),
 * and the activity list's page (Migration20261126110000_activity_domain_page) leaves out those
 * past it, as every read of mail leaves out mail past its retention before the purge has run
 * (messages/message.status.ts messageShown). A condition on the row itself: a page is chosen
 * from the activity index alone, never reading a message (bench:scale). Activities written
 * before carry none, and stay shown until the purge deletes them.
 */
export class Migration20261129020000_activity_purge_after extends Migration {

  override name = 'Migration20261129020000_activity_purge_after';

  override up(): void | Promise<void> {
    this.addSql(`alter table "activities" add column "purge_after" timestamptz null;`);
    this.addSql(`create or replace function "activity_domain_page"(
        lifecycle text[], p_domain text, p_account text, p_from timestamptz, p_before timestamptz,
        p_only text[], p_hidden text[], p_limit int, p_offset int)
      returns table (
        found text, id text, domain_id text, type text, suppression_reason text, created_at timestamptz, updated_at timestamptz,
        e_id text, from_email text, subject text, text text, html text, status text, tags text[],
        e_created_at timestamptz, e_updated_at timestamptz,
        r_id text, r_email text, r_created_at timestamptz, r_updated_at timestamptz, r_deleted_at timestamptz,
        p_at timestamptz, p_rank int)
      language plpgsql stable
      set plan_cache_mode = force_generic_plan
      as $$
      #variable_conflict use_column
      begin
        return query
        with d as (select dm.id from domains dm where dm.id = p_domain and dm.account_id = p_account),
        page as materialized (
          select a.id, a.created_at, array_position(lifecycle, a.type::text) as rank from activities a
           where a.domain_id = (select d.id from d) and a.account_id = p_account and a.created_at >= p_from and a.created_at < p_before
             and (cardinality(p_only) = 0 or a.type = any(p_only)) and a.type <> all(p_hidden)
             and (a.purge_after is null or a.purge_after > now())
           order by a.created_at desc, rank desc, a.id desc limit p_limit offset p_offset
        )
        select d.id::text, x.* from d left join lateral (
          select a.id::text as a_id, a.domain_id::text as a_domain_id, a.type::text as a_type,
            a.suppression_reason::text as a_reason, a.created_at as a_created_at, a.updated_at as a_updated_at,
            e.id::text as e_id, m.from_email::text as m_from, e.subject as e_subject,
            -- Bodies dropped after delivery (track_content off) are not shown, not even the template's.
            case when m.content_cleared_at is null then coalesce(m.text, tr.text, t.text) end as body_text,
            case when m.content_cleared_at is null then coalesce(m.html, tr.html, t.html) end as body_html,
            e.status::text as e_status, e.tags as e_tags, e.created_at as e_created_at, e.updated_at as e_updated_at,
            r.id::text as r_id, r.email::text as r_email, r.created_at as r_created_at, r.updated_at as r_updated_at,
            r.deleted_at as r_deleted_at, p.created_at as page_at, p.rank as page_rank
          from page p
          join activities a on a.id = p.id
          join emails e on e.id = a.email_id
          join messages m on m.id = e.message_id
          join recipients r on r.id = e.recipient_id
          left join templates t on t.id = m.template_id and t.account_id = m.account_id
          -- What was sent: the translation in the send's language when there is one (as delivery reads it).
          left join template_translations tr on tr.template_id = t.id and tr.language = m.language
        ) x on true
        order by x.page_at desc, x.page_rank desc, x.a_id desc;
      end $$;`);
  }

}
