import type { EntityManager } from '@mikro-orm/postgresql';
import { idRange, idsIn } from '../../db/partitions.js';
import { sqlRows, textArray } from '../../db/sql.js';
import { afterCommit } from '../../lib/pubsub.js';
import { activityNotices } from '../../modules/activity/activity.notice.js';
import { ACTIVITY_INPUT, activityWrites, type ActivityInsert } from '../../modules/activity/activity.repository.js';
import { PENDING_EMAIL, type EmailStatus } from '../../modules/messages/message.status.js';

/** An email's outcome as recorded: its new status and what the email log shows of the attempt. */
export interface OutcomeRow {
  id: string;
  status: EmailStatus;
  suppression_reason: string | null;
  /** 1 when the transport was tried this time. */
  tried: number;
  response: string | null;
}

/** The emails' new state, as `record` writes it, from the outcomes in `x`. */
const SET_OUTCOME = `status = x.status, suppression_reason = coalesce(x.suppression_reason, e.suppression_reason),
  attempts = e.attempts + x.tried,
  last_response = coalesce(x.response, e.last_response), lease_until = null, updated_at = now()`;
const OUTCOME_INPUT = `jsonb_to_recordset($1::jsonb) as x(id text, status text, suppression_reason text, tried int, response text)`;

/**
 * recordWithActivities' statement: the outcomes of the emails still pending, and the activities
 * (with their daily counts and events) of those emails only, so an email recorded meanwhile by
 * another worker gets neither a second outcome nor a second set of activities. The ids come
 * apart as well ($4, with their least and greatest: db/partitions.ts idRange): the plan then
 * finds the emails by their key in their weeks only, whatever it guesses of the JSON's rows.
 */
const RECORD_WITH_ACTIVITIES = `with updated as (
    update emails e set ${SET_OUTCOME}
      from ${OUTCOME_INPUT}
     where ${idsIn('e.id', '$4::text[]', '$5', '$6')} and e.id = x.id and e.status = any($2::text[])
    returning e.id
  ),
  ${ACTIVITY_INPUT('given', '$3::json')},
  input as (select g.* from given g where g.email_id in (select id from updated)),
  ${activityWrites('input')}
  select id from updated`;

/** The statements that record delivery outcomes (outcome.recorder.ts), each for many emails at once. */
export class OutcomeRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * Records outcomes in one statement and frees their leases. Only emails still pending move: one
   * recorded meanwhile (by a worker that took it after a lease ran out) keeps its outcome, and is
   * left out of the ids returned, so its activities are not recorded twice.
   */
  async record(rows: OutcomeRow[]): Promise<string[]> {
    if (!rows.length) return [];
    const updated = await sqlRows<{ id: string }>(
      this.em,
      `update emails e set ${SET_OUTCOME}
         from ${OUTCOME_INPUT}
        where ${idsIn('e.id', '$3::text[]', '$4', '$5')} and e.id = x.id and e.status = any($2::text[])
        returning e.id`,
      [JSON.stringify(rows), textArray(PENDING_EMAIL), textArray(rows.map((r) => r.id)), ...idRange(rows.map((r) => r.id))],
    );
    return updated.map((r) => r.id);
  }

  /**
   * `record` and recordActivities in one statement, outside any transaction (a single statement
   * commits as a whole): one round trip and one commit for a group of outcomes instead of BEGIN,
   * two statements and COMMIT (planned for its ids each time, as `take` is). Answers
   * the emails recorded; live `activity` subscribers hear of their activities once it committed.
   */
  async recordWithActivities(rows: OutcomeRow[], activities: ActivityInsert[]): Promise<string[]> {
    if (!rows.length) return [];
    const updated = await sqlRows<{ id: string }>(this.em, RECORD_WITH_ACTIVITIES, [
      JSON.stringify(rows),
      textArray(PENDING_EMAIL),
      JSON.stringify(activities),
      textArray(rows.map((r) => r.id)),
      ...idRange(rows.map((r) => r.id)),
    ]);
    const done = new Set(updated.map((r) => r.id));
    for (const [topic, notice] of activityNotices(activities.filter((a) => done.has(a.email_id)))) afterCommit(this.em, topic, notice);
    return [...done];
  }
}
