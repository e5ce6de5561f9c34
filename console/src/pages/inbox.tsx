import { useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote, PageTitle, Pager, When } from '../ui';

const Captured = graphql(`
  query ConsoleInbox($page: Int!) {
    captured_emails(limit: 25, page: $page) {
      data { id email_id from to subject created_at }
      meta { total }
    }
  }
`);

/**
 * The sandbox's inbox: what the capture transport kept instead of sending, newest first. Each
 * opens as its email in the log, rendered there as every email is (untracked, in a sandboxed frame).
 */
export function InboxPage() {
  const [page, setPage] = useState(1);
  const [{ data, error }] = useQuery({ query: Captured, variables: { page }, requestPolicy: 'cache-and-network' });
  const rows = data?.captured_emails.data ?? [];
  const total = data?.captured_emails.meta.total ?? 0;
  return (
    <>
      <PageTitle>Sandbox inbox</PageTitle>
      <p className="muted">Mail your domains sent while mail is captured: nothing here left this machine.</p>
      <ErrorNote error={error} />
      {data && !rows.length ? <p>Nothing captured yet. Send a test email from a domain&apos;s page and it arrives here.</p> : null}
      {rows.length ? (
        <table aria-label="Captured emails">
          <thead>
            <tr>
              <th>Received</th>
              <th>To</th>
              <th>Subject</th>
              <th>From</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>
                  <When at={r.created_at} />
                </td>
                <td className="wrap">{r.to}</td>
                <td>
                  <a href={`#/emails/${r.email_id}`}>{r.subject || '(no subject)'}</a>
                </td>
                <td className="wrap">{r.from}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Pager page={page} setPage={setPage} more={page * 25 < total} />
    </>
  );
}
