import { useState } from 'react';
import { useClient, useQuery } from 'urql';
import { graphql } from '../gql';
import type { ConsoleEmailQuery } from '../gql/graphql';
import { ErrorNote, PageTitle, Pager, useDomainChoice, When, downloadCsv, Empty } from '../ui';

/** The most rows one export gathers (10 pages of the API's largest). */
const EXPORT_MAX = 1000;

const STATUSES = ['queued', 'scheduled', 'paused', 'deferred', 'sent', 'delivered', 'soft_bounced', 'hard_bounced', 'suppressed', 'rejected', 'cancelled'];

const Emails = graphql(`
  query ConsoleEmails($domain: ID, $status: [String!], $recipient: String, $subject: String, $page: Int!, $limit: Int!) {
    emails(domain_id: $domain, status: $status, recipient: $recipient, subject: $subject, limit: $limit, page: $page) {
      id
      created_at
      to
      subject
      status
    }
  }
`);

const Email = graphql(`
  query ConsoleEmail($id: ID!) {
    email(email_id: $id) {
      id
      created_at
      from
      from_name
      to
      to_name
      subject
      status
      tags
      message_id
      interaction
      html
      text
      last_response
      diagnosis { reason requirement provider explanation }
      content { raw }
      activity { id type created_at suppression_reason }
      webhook_deliveries { id webhook_id webhook_name type state attempts last_status created_at }
    }
  }
`);

export function EmailsPage({ rest }: { rest: string[] }) {
  return rest[0] ? <EmailDetail id={rest[0]} /> : <EmailList />;
}

function EmailList() {
  const { domainId, picker } = useDomainChoice();
  const [status, setStatus] = useState('');
  const [recipient, setRecipient] = useState('');
  const [subject, setSubject] = useState('');
  const [page, setPage] = useState(1);
  const filters = { domain: domainId, status: status ? [status] : null, recipient: recipient.trim() || null, subject: subject.trim() || null };
  const [{ data, error }] = useQuery({ query: Emails, variables: { ...filters, page, limit: 25 }, pause: !domainId });
  const rows = data?.emails ?? [];
  const client = useClient();
  const [exporting, setExporting] = useState<string | null>(null);
  // Every email the filters match, page by page through the API, at most EXPORT_MAX.
  async function exportCsv() {
    setExporting('Exporting…');
    const all: NonNullable<typeof data>['emails'] = [];
    for (let p = 1; all.length < EXPORT_MAX; p++) {
      const res = await client.query(Emails, { ...filters, page: p, limit: 100 }, { requestPolicy: 'network-only' }).toPromise();
      if (res.error) return setExporting(res.error.message);
      all.push(...(res.data?.emails ?? []));
      if ((res.data?.emails.length ?? 0) < 100) break;
    }
    downloadCsv('emails', ['created_at', 'to', 'subject', 'status', 'id'], all.map((e) => [e.created_at, e.to, e.subject, e.status, e.id]));
    setExporting(`Exported ${all.length} email${all.length === 1 ? '' : 's'}${all.length >= EXPORT_MAX ? ` (the first ${EXPORT_MAX})` : ''}.`);
  }
  return (
    <>
      <PageTitle actions={picker}>Email log</PageTitle>
      <form className="row" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={status} onChange={(e) => (setStatus(e.target.value), setPage(1))}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label>
          Recipient
          <input type="search" value={recipient} onChange={(e) => (setRecipient(e.target.value), setPage(1))} />
        </label>
        <label>
          Subject contains
          <input type="search" value={subject} onChange={(e) => (setSubject(e.target.value), setPage(1))} />
        </label>
        <button type="button" onClick={() => void exportCsv()} disabled={!domainId || exporting === 'Exporting…'}>
          Export CSV
        </button>
      </form>
      {exporting ? <p role="status">{exporting}</p> : null}
      <ErrorNote error={error} />
      <Empty when={!!data && !rows.length}>No email matches. Change the filters, or send one from a domain&apos;s page.</Empty>
      <table>
        <thead>
          <tr>
            <th>Created</th>
            <th>To</th>
            <th>Subject</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((e) => (
            <tr key={e.id}>
              <td>
                <When at={e.created_at} />
              </td>
              <td>{e.to}</td>
              <td>
                <a href={`#/emails/${e.id}`}>{e.subject || '(no subject)'}</a>
              </td>
              <td>
                <span className={`badge ev-${e.status}`}>{e.status}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager page={page} setPage={setPage} more={rows.length === 25} />
    </>
  );
}

function EmailDetail({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: Email, variables: { id } });
  const email = data?.email;
  if (!email) return <ErrorNote error={error} />;
  return (
    <>
      <PageTitle>{email.subject || '(no subject)'}</PageTitle>
      <dl className="facts">
        <dt>From</dt>
        <dd>{email.from_name ? `${email.from_name} <${email.from}>` : email.from}</dd>
        <dt>To</dt>
        <dd>{email.to_name ? `${email.to_name} <${email.to}>` : email.to}</dd>
        <dt>Status</dt>
        <dd>{email.status}</dd>
        <dt>Created</dt>
        <dd>
          <When at={email.created_at} />
        </dd>
        <dt>Message</dt>
        <dd>
          <code>{email.message_id}</code>
        </dd>
        <dt>Tags</dt>
        <dd>{email.tags?.join(', ') || '—'}</dd>
      </dl>
      <h2>Content</h2>
      {email.html ? (
        // sandbox="" : no scripts, no forms, no navigation, its own opaque origin.
        <iframe className="preview" title="Email content" sandbox="" srcDoc={email.html} />
      ) : email.text ? (
        <pre className="text">{email.text}</pre>
      ) : (
        <p className="muted">The content is not kept for this email (the domain&apos;s Keep content setting is off).</p>
      )}
      {email.last_response ? (
        <>
          <h2>Server answer</h2>
          <p className={/bounced/.test(email.status) ? 'error' : undefined}>
            <code className="wrap">{email.last_response}</code>
          </p>
          {email.diagnosis ? (
            <p className="diagnosis">
              {email.diagnosis.requirement ? <span className="badge">{email.diagnosis.requirement.replace(/_/g, ' ')}</span> : null}{' '}
              {email.diagnosis.explanation}
            </p>
          ) : null}
        </>
      ) : null}
      {email.content?.raw ? <Source raw={email.content.raw} /> : null}
      <h2>Events</h2>
      <ol className="timeline">
        {email.activity.map((a) => (
          <li key={a.id}>
            <span className={`badge ev-${a.type}`}>{a.type}</span> <When at={a.created_at} />
            {a.suppression_reason ? ` (${a.suppression_reason})` : ''}
          </li>
        ))}
      </ol>
      <h2>Webhook deliveries</h2>
      <WebhookDeliveries rows={email.webhook_deliveries} />
    </>
  );
}

/** The headers of a raw message: the lines before the first blank one, folded lines joined. */
function headersOf(raw: string): [string, string][] {
  const head = raw.split(/\r?\n\r?\n/, 1)[0];
  return head
    .replace(/\r?\n[ \t]+/g, ' ')
    .split(/\r?\n/)
    .map((line): [string, string] => {
      const at = line.indexOf(':');
      return at > 0 ? [line.slice(0, at), line.slice(at + 1).trim()] : [line, ''];
    });
}

/** The message as it went out (the capture transport's copy): its headers, and the whole source as text. */
function Source({ raw }: { raw: string }) {
  return (
    <>
      <h2>Headers</h2>
      <table aria-label="Headers">
        <tbody>
          {headersOf(raw).map(([name, value], i) => (
            <tr key={i}>
              <th scope="row">{name}</th>
              <td className="wrap small">{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <details>
        <summary>Raw source</summary>
        <pre className="payload" aria-label="Raw source">
          {raw}
        </pre>
      </details>
    </>
  );
}

/** How a delivery's state reads at a glance: the colours of the events it resembles. */
const STATE_BADGE: Record<string, string> = { pending: 'ev-queued', delivered: 'ev-delivered', failed: 'ev-hard_bounced', gave_up: 'ev-hard_bounced' };

/** The email's webhook deliveries; null when the user may not read webhooks (no webhooks_full). */
function WebhookDeliveries({ rows }: { rows: ConsoleEmailQuery['email']['webhook_deliveries'] }) {
  if (rows == null) return <p className="muted">You do not have access to webhooks.</p>;
  if (!rows.length) return <p className="muted">No webhook received an event of this email.</p>;
  return (
    <table aria-label="Webhook deliveries">
      <thead>
        <tr>
          <th>Created</th>
          <th>Webhook</th>
          <th>Event</th>
          <th>State</th>
          <th>Attempts</th>
          <th>Last status</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((d) => (
          <tr key={d.id}>
            <td>
              <When at={d.created_at} />
            </td>
            <td>
              <a href={`#/webhooks/${d.webhook_id}`} title="The webhook's delivery log">
                {d.webhook_name}
              </a>
            </td>
            <td>{d.type}</td>
            <td>
              <span className={`badge ${STATE_BADGE[d.state] ?? ''}`}>{d.state}</span>
            </td>
            <td>{d.attempts}</td>
            <td>{d.last_status ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
