import { Migration } from '@mikro-orm/migrations';

/**
 * The activity list's page as a function whose plan is always the generic one
 * (activity/activity.repository.ts domainPage). As a named prepared statement it was planned
 * afresh on every call once a domain held a million activities: the page's LIMIT and OFFSET are
 * parameters, which a generic plan cannot estimate, so PostgreSQL judged it several times dearer
 * than a custom one and kept making custom plans, planning taking longer than the page itself
 * (bench:scale loads the first page at 10k, 100k and 1M activities). The generic plan
 * is the same walk of the (domain_id, created_at) index that a custom plan finds, so the
 * function's SET fixes it for this one query, where a setting for the pool would change every
 * statement's. PL/pgSQL keeps a statement's plan for the session, so a pooled connection plans it
 * once. `found` is the domain's id: no row at all comes back when the domain is not the
 * account's, and an empty page is one row of nulls beside it. An empty `p_only` does not filter
 * by type. Ties in time are broken by the type's place in the life of an email (`lifecycle`),
 * then by id. Changing this query takes a new migration (`create or replace function`).
 */
export class Migration20261126110000_activity_domain_page extends Migration {

  override name = 'Migration20261126110000_activity_domain_page';

  override up(): void | Promise<void> {
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

  override down(): void | Promise<void> {
    this.addSql(`drop function if exists "activity_domain_page"(text[], text, text, timestamptz, timestamptz, text[], text[], int, int);`);
  }

}
