import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { Empty, ErrorNote, PageTitle, Pager, TableHead, When, go } from '../ui';

const List = graphql(`
  query ConsoleBulkEmails($page: Int!) {
    bulk_emails(limit: 25, page: $page) { id created_at state total_recipients_count suppressed_recipients_count validation_errors_count }
  }
`);

const Detail = graphql(`
  query ConsoleBulkEmail($id: ID!) {
    bulk_email(bulk_email_id: $id) {
      id
      created_at
      updated_at
      state
      total_recipients_count
      suppressed_recipients_count
      suppressed_recipients
      validation_errors_count
      validation_errors
      messages_id
    }
  }
`);

const Send = graphql(`mutation ConsoleSendBulk($emails: [JSONObject!]!) { send_bulk_email(emails: $emails) { bulk_email_id } }`);

const PAGE = 25;
// An empty list holds no BulkEmail to be dropped by: named here, a new request drops it as well.
const LIST_CONTEXT = { additionalTypenames: ['BulkEmail'] };
const BADGE: Record<string, string> = { queued: 'ev-queued', processing: 'ev-queued', completed: 'ev-delivered', failed: 'ev-hard_bounced' };
const working = (state: string) => state === 'queued' || state === 'processing';

/** Reads a request again every two seconds while `active`, so a queued request turns into its outcome unprompted. */
function usePoll(active: boolean, refetch: (o: { requestPolicy: 'network-only' }) => void) {
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => refetch({ requestPolicy: 'network-only' }), 2000);
    return () => clearInterval(timer);
  }, [active, refetch]);
}

/** Bulk email: many sends in one request (POST /v1/bulk-email), checked and sent by a job; what became of each. */
export function BulkPage({ rest }: { rest: string[] }) {
  return rest[0] ? <BulkDetail id={rest[0]} /> : <BulkList />;
}

function StateBadge({ state }: { state: string }) {
  return <span className={`badge ${BADGE[state] ?? ''}`}>{state}</span>;
}

function BulkList() {
  const [page, setPage] = useState(1);
  const [{ data, error }, refetch] = useQuery({ query: List, variables: { page }, context: LIST_CONTEXT });
  const rows = data?.bulk_emails ?? [];
  usePoll(rows.some((b) => working(b.state)), refetch);
  return (
    <>
      <PageTitle>Bulk email</PageTitle>
      <SendForm />
      <h2>Bulk requests</h2>
      <ErrorNote error={error} />
      <Empty when={!!data && !rows.length && page === 1}>
        No bulk request yet. One carries many emails at once: send one with the form above, or through POST /v1/bulk-email.
      </Empty>
      {rows.length ? (
        <table aria-label="Bulk requests">
          <TableHead columns={['Request', 'Created', 'State', 'Recipients', 'Suppressed', 'Validation errors']} />
          <tbody>
            {rows.map((b) => (
              <tr key={b.id}>
                <td>
                  <a href={`#/bulk/${b.id}`}>
                    <code>{b.id}</code>
                  </a>
                </td>
                <td>
                  <When at={b.created_at} />
                </td>
                <td>
                  <StateBadge state={b.state} />
                </td>
                <td>{b.total_recipients_count}</td>
                <td>{b.suppressed_recipients_count}</td>
                <td>{b.validation_errors_count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {data && (page > 1 || rows.length === PAGE) ? <Pager page={page} setPage={setPage} more={rows.length === PAGE} /> : null}
    </>
  );
}

const EXAMPLE = `[
  { "from": { "email": "info@your-domain.com" }, "to": [{ "email": "one@example.com" }], "subject": "Hello", "text": "Hi!" }
]`;

/** The emails of a request as typed, or what keeps them from being sent: a JSON array of objects, each a POST /v1/email body. */
function readEmails(text: string): { emails: Record<string, unknown>[] } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problem: `This is not valid JSON (${(e as Error).message}). Write an array of email objects, as in the example.` };
  }
  if (!Array.isArray(value)) return { problem: 'The request must be a JSON array of emails, [ {…}, {…} ], even for a single email.' };
  if (!value.length) return { problem: 'The array is empty: add at least one email.' };
  const bad = value.findIndex((x) => !x || typeof x !== 'object' || Array.isArray(x));
  if (bad >= 0) return { problem: `Item ${bad + 1} is not an object: each item is the body of one POST /v1/email, in braces.` };
  return { emails: value as Record<string, unknown>[] };
}

function SendForm() {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sent, send] = useMutation(Send);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const read = readEmails(text);
    if ('problem' in read) return setProblem(read.problem);
    setProblem(null);
    // Naming the list's type drops the cached list, which would show without the new request for a moment.
    const res = await send({ emails: read.emails }, { additionalTypenames: ['BulkEmail'] });
    const id = res.data?.send_bulk_email.bulk_email_id;
    if (id) go(`bulk/${id}`);
  }
  return (
    <form className="stack" onSubmit={submit} aria-label="Send a bulk request">
      <h2>Send a bulk request</h2>
      <label>
        Emails: a JSON array of POST /v1/email bodies (at most 500)
        <textarea rows={8} value={text} placeholder={EXAMPLE} onChange={(e) => setText(e.target.value)} spellCheck={false} />
      </label>
      <ErrorNote error={problem ?? sent.error} />
      <div>
        <button type="submit" className="primary" disabled={sent.fetching || !text.trim()}>
          Send bulk request
        </button>
      </div>
    </form>
  );
}

function BulkDetail({ id }: { id: string }) {
  const [{ data, error }, refetch] = useQuery({ query: Detail, variables: { id }, requestPolicy: 'cache-and-network' });
  const b = data?.bulk_email;
  usePoll(!!b && working(b.state), refetch);
  if (!b) return <ErrorNote error={error} />;
  return (
    <>
      <PageTitle>Bulk request</PageTitle>
      <p>
        <a href="#/bulk">All bulk requests</a>
      </p>
      <ErrorNote error={error} />
      <dl className="facts">
        <dt>Id</dt>
        <dd>
          <code className="wrap">{b.id}</code>
        </dd>
        <dt>State</dt>
        <dd>
          <StateBadge state={b.state} />
          {working(b.state) ? <span className="muted"> (checked every few seconds)</span> : null}
        </dd>
        <dt>Created</dt>
        <dd>
          <When at={b.created_at} />
        </dd>
        <dt>Recipients</dt>
        <dd>{b.total_recipients_count}</dd>
        <dt>Suppressed</dt>
        <dd>{b.suppressed_recipients_count}</dd>
        <dt>Validation errors</dt>
        <dd>{b.validation_errors_count}</dd>
      </dl>
      <h2>Messages sent</h2>
      {b.messages_id?.length ? (
        <ul aria-label="Message ids">
          {b.messages_id.map((m) => (
            <li key={m}>
              <code className="wrap">{m}</code>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{working(b.state) ? 'None yet.' : 'None: no message of this request was sent.'}</p>
      )}
      <ValidationErrors errors={b.validation_errors ?? null} />
      <Suppressed recipients={b.suppressed_recipients ?? null} />
    </>
  );
}

/** `message.<index>[.<field>]` keys grouped by message, in the request's order. */
function byMessage<T>(value: Record<string, T>): [number, [string, T][]][] {
  const groups = new Map<number, [string, T][]>();
  for (const [key, v] of Object.entries(value)) {
    const m = /^message\.(\d+)(?:\.(.+))?$/.exec(key);
    const index = m ? Number(m[1]) : -1;
    groups.set(index, [...(groups.get(index) ?? []), [m?.[2] ?? '', v]]);
  }
  return [...groups.entries()].sort(([a], [b]) => a - b);
}

const messageName = (index: number) => (index < 0 ? 'The request' : `Message ${index + 1} (index ${index})`);

function ValidationErrors({ errors }: { errors: Record<string, unknown> | null }) {
  if (!errors || !Object.keys(errors).length) return null;
  return (
    <>
      <h2>Validation errors</h2>
      <ul aria-label="Validation errors">
        {byMessage(errors).map(([index, fields]) => (
          <li key={index}>
            <strong>{messageName(index)}</strong> was not sent:
            <ul>
              {fields.map(([field, messages]) => (
                <li key={field}>
                  {field ? <code>{field}</code> : null} {Array.isArray(messages) ? messages.join(' ') : String(messages)}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </>
  );
}

interface SuppressedRecipient {
  email?: string;
  reasons?: string[];
}

function Suppressed({ recipients }: { recipients: Record<string, unknown> | null }) {
  if (!recipients || !Object.keys(recipients).length) return null;
  return (
    <>
      <h2>Suppressed recipients</h2>
      <ul aria-label="Suppressed recipients">
        {byMessage(recipients).map(([index, entries]) => (
          <li key={index}>
            <strong>{messageName(index)}</strong> was not sent to:{' '}
            {entries
              .flatMap(([, v]) => ((v as { to?: SuppressedRecipient[] })?.to ?? []))
              .map((r) => `${r.email ?? '?'}${r.reasons?.length ? ` (${r.reasons.join(', ').replace(/_/g, ' ')})` : ''}`)
              .join('; ')}
          </li>
        ))}
      </ul>
    </>
  );
}
