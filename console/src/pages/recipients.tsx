import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { allowed } from '../session';
import { Empty, ErrorNote, Notice, PageTitle, Pager, TableHead, When, go, useDomainChoice } from '../ui';

const Recipients = graphql(`
  query ConsoleRecipients($domain: ID, $page: Int!) {
    recipients(domain_id: $domain, limit: 25, page: $page) {
      data { id email created_at }
      meta { current_page last_page total }
    }
  }
`);

const Recipient = graphql(`
  query ConsoleRecipient($id: ID!) {
    recipient(recipient_id: $id) {
      id
      email
      created_at
      domain { id name }
      emails { id subject status created_at }
    }
  }
`);

const Delete = graphql(`mutation ConsoleDeleteRecipient($id: ID!) { delete_recipient(recipient_id: $id) }`);

/** Deleting needs recipients_full, which only this permission grants. */
const mayDelete = () => allowed(['manage-verified-recipients']);
// The mutation answers a bare Boolean: naming the list's types drops the cached lists, so none shows a deleted recipient.
const DROPS_LISTS = { additionalTypenames: ['RecipientPage', 'RecipientType'] };

/** Recipients: the addresses the account has sent to, per domain, each with the latest emails it was sent. */
export function RecipientsPage({ rest }: { rest: string[] }) {
  return rest[0] ? <RecipientDetail id={rest[0]} /> : <RecipientList />;
}

function RecipientList() {
  const { domainId, picker } = useDomainChoice();
  const [page, setPage] = useState(1);
  const [{ data, error }, refetch] = useQuery({ query: Recipients, variables: { domain: domainId, page }, pause: !domainId });
  const [deleted, del] = useMutation(Delete);
  const rows = data?.recipients.data ?? [];
  const meta = data?.recipients.meta;
  const remove = (id: string, email: string) => {
    if (window.confirm(`Delete the recipient ${email}? Sending to it again adds it back.`)) {
      void del({ id }, DROPS_LISTS).then((res) => !res.error && refetch({ requestPolicy: 'network-only' }));
    }
  };
  return (
    <>
      <PageTitle actions={picker}>Recipients</PageTitle>
      {deleted.data ? <Notice>Recipient deleted.</Notice> : null}
      <ErrorNote error={error ?? deleted.error} />
      <Empty when={!!data && !rows.length}>
        No recipient on this domain yet. A recipient appears here when mail is sent to it from the domain.
      </Empty>
      {rows.length ? (
        <table aria-label="Recipients">
          <TableHead columns={['Address', 'Added']} actions={mayDelete()} />
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td className="wrap">
                  <a href={`#/recipients/${r.id}`}>{r.email}</a>
                </td>
                <td>
                  <When at={r.created_at} />
                </td>
                {mayDelete() ? (
                  <td>
                    <button type="button" className="small danger" aria-label={`Delete ${r.email}`} onClick={() => remove(r.id, r.email)}>
                      Delete
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {meta && meta.total > 0 ? <Pager page={page} setPage={setPage} more={meta.current_page < meta.last_page} /> : null}
    </>
  );
}

function RecipientDetail({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: Recipient, variables: { id } });
  const [deleted, del] = useMutation(Delete);
  const r = data?.recipient;
  if (!r) return <ErrorNote error={error} />;
  const remove = () => {
    if (window.confirm(`Delete the recipient ${r.email}? Sending to it again adds it back.`)) {
      void del({ id: r.id }, DROPS_LISTS).then((res) => !res.error && go('recipients'));
    }
  };
  // The email log needs its own permission: without it the subjects are plain text.
  const linked = allowed(['read-email']);
  return (
    <>
      <PageTitle actions={mayDelete() ? <button type="button" className="danger" onClick={remove}>Delete recipient</button> : null}>
        <span className="wrap">{r.email}</span>
      </PageTitle>
      <p>
        <a href="#/recipients">All recipients</a>
      </p>
      <ErrorNote error={deleted.error} />
      <dl className="facts">
        <dt>Domain</dt>
        <dd>{r.domain.name}</dd>
        <dt>Added</dt>
        <dd>
          <When at={r.created_at} />
        </dd>
      </dl>
      <h2>Latest emails</h2>
      <Empty when={!r.emails.length}>No email sent to this recipient is kept: older emails are removed after the account&apos;s retention period.</Empty>
      {r.emails.length ? (
        <table aria-label="Latest emails">
          <TableHead columns={['Subject', 'Status', 'Created']} />
          <tbody>
            {r.emails.map((e) => (
              <tr key={e.id}>
                <td className="wrap">{linked ? <a href={`#/emails/${e.id}`}>{e.subject || '(no subject)'}</a> : e.subject || '(no subject)'}</td>
                <td>
                  <span className={`badge ev-${e.status}`}>{e.status}</span>
                </td>
                <td>
                  <When at={e.created_at} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
