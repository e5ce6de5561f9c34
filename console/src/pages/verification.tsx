import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote, Notice, PageTitle, lines, TableHead } from '../ui';

const Lists = graphql(`
  query ConsoleVerificationLists {
    email_verification_lists(limit: 100, page: 1) {
      data {
        id
        name
        total
        created_at
        status { name count }
        statistics { valid catch_all unknown mailbox_not_found syntax_error disposable }
      }
    }
  }
`);

const Create = graphql(`
  mutation ConsoleCreateVerificationList($name: String!, $emails: [String!]!) {
    create_email_verification_list(name: $name, emails: $emails) { id }
  }
`);

const Verify = graphql(`
  mutation ConsoleVerifyList($id: ID!) { verify_email_verification_list(email_verification_id: $id) { message } }
`);

const Single = graphql(`
  mutation ConsoleVerifyEmail($email: String!) { verify_email(email: $email) { status } }
`);

/** What a result means for sending: safe (green), risky (amber), or do not send (red). */
const VERDICTS: Record<string, { tone: 'good' | 'risky' | 'bad'; meaning: string }> = {
  valid: { tone: 'good', meaning: 'safe to send' },
  catch_all: { tone: 'risky', meaning: 'the server accepts any address; delivery is not certain' },
  mailbox_full: { tone: 'risky', meaning: 'the mailbox is full for now' },
  role_based: { tone: 'risky', meaning: 'a shared address (info@, sales@), often unwatched' },
  unknown: { tone: 'risky', meaning: 'the server did not say' },
  syntax_error: { tone: 'bad', meaning: 'not a valid address: do not send' },
  typo: { tone: 'bad', meaning: 'likely a typo: do not send' },
  mailbox_not_found: { tone: 'bad', meaning: 'no such mailbox: do not send' },
  disposable: { tone: 'bad', meaning: 'a throwaway address: do not send' },
  mailbox_blocked: { tone: 'bad', meaning: 'the mailbox refuses mail: do not send' },
  failed: { tone: 'risky', meaning: 'the check itself failed; try again' },
};

function VerdictNote({ status }: { status: string }) {
  const v = VERDICTS[status] ?? { tone: 'risky', meaning: '' };
  return (
    <p className={`verdict ${v.tone}`} role="status">
      Result: <strong>{status}</strong>
      {v.meaning ? ` (${v.meaning})` : ''}
    </p>
  );
}

export function VerificationPage() {
  const [{ data, error }, refetch] = useQuery({ query: Lists });
  const [created, create] = useMutation(Create);
  const [verified, verify] = useMutation(Verify);
  const [single, verifyOne] = useMutation(Single);
  const [name, setName] = useState('');
  const [emails, setEmails] = useState('');
  const [one, setOne] = useState('');
  const again = () => refetch({ requestPolicy: 'network-only' });
  async function submit(e: FormEvent) {
    e.preventDefault();
    const res = await create({ name, emails: lines(emails) });
    if (!res.error) (setName(''), setEmails(''), again());
  }
  return (
    <>
      <PageTitle>Email verification</PageTitle>
      <form
        className="row"
        aria-label="Verify one address"
        onSubmit={(e) => {
          e.preventDefault();
          void verifyOne({ email: one });
        }}
      >
        <label>
          Address
          <input type="email" required value={one} onChange={(e) => setOne(e.target.value)} />
        </label>
        <button type="submit" disabled={single.fetching}>
          Verify address
        </button>
      </form>
      {single.data ? <VerdictNote status={single.data.verify_email.status} /> : null}
      <form className="stack" onSubmit={submit} aria-label="New list">
        <label>
          List name
          <input required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Addresses (one per line)
          <textarea rows={4} required value={emails} onChange={(e) => setEmails(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={created.fetching}>
          Create list
        </button>
      </form>
      <ErrorNote error={error ?? created.error ?? verified.error ?? single.error} />
      {verified.data ? <Notice>{verified.data.verify_email_verification_list.message}</Notice> : null}
      <table>
        <TableHead columns={['Name', 'Addresses', 'Status', 'Valid', 'Not found']} actions />
        <tbody>
          {data?.email_verification_lists.data.map((l) => (
            <tr key={l.id}>
              <td>{l.name}</td>
              <td>{l.total}</td>
              <td>{l.status.name}</td>
              <td>{l.statistics.valid}</td>
              <td>{l.statistics.mailbox_not_found}</td>
              <td>
                <button type="button" className="small" onClick={() => void verify({ id: l.id }).then(again)}>
                  Verify
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
