import type { TestServer } from '../support/server.js';

export interface AuditRow {
  id: string;
  action: string;
  actor: { type: string; id: string | null; name: string | null };
  subject_type: string;
  subject_id: string;
  changes: Record<string, { from?: unknown; to?: unknown }>;
  ip: string | null;
  created_at: string;
}

const QUERY = `query($page: Int, $limit: Int, $action: String, $subject_id: ID, $date_from: String, $date_to: String) {
  audit_events(page: $page, limit: $limit, action: $action, subject_id: $subject_id, date_from: $date_from, date_to: $date_to) {
    data { id action actor { type id name } subject_type subject_id changes ip created_at }
    meta { current_page from last_page per_page to total }
  }
}`;

/** The raw GraphQL answer of `audit_events`. */
export function auditQuery(s: TestServer, args: Record<string, unknown> = {}, token?: string) {
  return s.gql(QUERY, args, token);
}

/** The events (newest first) that match, failing loudly on an error answer. */
export async function auditEvents(s: TestServer, args: Record<string, unknown> = {}, token?: string): Promise<AuditRow[]> {
  const res = await auditQuery(s, { limit: 100, ...args }, token);
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data.audit_events.data;
}

/** Events about one subject, oldest first (the order things happened in). */
export async function historyOf(s: TestServer, subjectId: string, token?: string): Promise<AuditRow[]> {
  return (await auditEvents(s, { subject_id: subjectId }, token)).reverse();
}
