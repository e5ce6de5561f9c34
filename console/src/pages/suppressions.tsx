import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote, PageTitle, Pager, lines, useDomainChoice, TableHead, When, downloadCsv } from '../ui';

const Lists = graphql(`
  query ConsoleSuppressions($domain: ID, $page: Int!) {
    hard_bounces(domain_id: $domain, limit: 100, page: $page) { id created_at reason recipient { email } }
    spam_complaints(domain_id: $domain, limit: 100, page: $page) { id created_at reason recipient { email } }
    unsubscribes(domain_id: $domain, limit: 100, page: $page) { id created_at reason recipient { email } }
    on_hold_list(domain_id: $domain, limit: 100, page: $page) { id created_at reason on_hold_until recipient { email } }
    blocklist(domain_id: $domain, limit: 100, page: $page) { id created_at type pattern }
  }
`);

const AddHard = graphql(`mutation ConsoleAddHard($d: ID!, $r: [String!]!) { add_hard_bounces(domain_id: $d, recipients: $r) { id } }`);
const AddSpam = graphql(`mutation ConsoleAddSpam($d: ID!, $r: [String!]!) { add_spam_complaints(domain_id: $d, recipients: $r) { id } }`);
const AddUnsub = graphql(`mutation ConsoleAddUnsub($d: ID!, $r: [String!]!) { add_unsubscribes(domain_id: $d, recipients: $r) { id } }`);
const AddHold = graphql(`mutation ConsoleAddHold($d: ID!, $r: [String!]!) { add_on_hold_list(domain_id: $d, recipients: $r) { id } }`);
const AddBlock = graphql(`mutation ConsoleAddBlock($d: ID!, $r: [String!]!) { add_to_blocklist(domain_id: $d, recipients: $r) { id } }`);
const DelHard = graphql(`mutation ConsoleDelHard($d: ID!, $ids: [ID!]) { delete_hard_bounces(domain_id: $d, ids: $ids) }`);
const DelSpam = graphql(`mutation ConsoleDelSpam($d: ID!, $ids: [ID!]) { delete_spam_complaints(domain_id: $d, ids: $ids) }`);
const DelUnsub = graphql(`mutation ConsoleDelUnsub($d: ID!, $ids: [ID!]) { delete_unsubscribes(domain_id: $d, ids: $ids) }`);
const DelHold = graphql(`mutation ConsoleDelHold($d: ID!, $ids: [ID!]) { delete_on_hold_list(domain_id: $d, ids: $ids) }`);
const DelBlock = graphql(`mutation ConsoleDelBlock($d: ID!, $ids: [ID!]) { delete_from_blocklist(domain_id: $d, ids: $ids) }`);

const KINDS = {
  hard_bounces: { label: 'Hard bounces', add: AddHard, del: DelHard },
  spam_complaints: { label: 'Spam complaints', add: AddSpam, del: DelSpam },
  unsubscribes: { label: 'Unsubscribes', add: AddUnsub, del: DelUnsub },
  on_hold_list: { label: 'On hold', add: AddHold, del: DelHold },
  blocklist: { label: 'Blocklist', add: AddBlock, del: DelBlock },
} as const;
type Kind = keyof typeof KINDS;

interface Row {
  id: string;
  value: string;
  created_at: string;
  note: string;
}

function download(name: string, rows: Row[]) {
  downloadCsv(name, ['value', 'created_at', 'note'], rows.map((r) => [r.value, r.created_at, r.note]));
}

export function SuppressionsPage() {
  const { domainId, picker } = useDomainChoice();
  const [kind, setKind] = useState<Kind>('hard_bounces');
  const [page, setPage] = useState(1);
  const [{ data, error }, refetch] = useQuery({ query: Lists, variables: { domain: domainId, page }, pause: !domainId });
  const [added, add] = useMutation(KINDS[kind].add);
  const [removed, remove] = useMutation(KINDS[kind].del);
  const [input, setInput] = useState('');
  const rows: Row[] = !data
    ? []
    : kind === 'blocklist'
      ? data.blocklist.map((b) => ({ id: b.id, value: b.pattern, created_at: b.created_at, note: b.type }))
      : data[kind].map((e) => ({ id: e.id, value: e.recipient.email, created_at: e.created_at, note: ('on_hold_until' in e ? `until ${e.on_hold_until}` : e.reason) ?? '' }));
  const again = () => refetch({ requestPolicy: 'network-only' });

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!domainId) return;
    const res = await add({ d: domainId, r: lines(input) });
    if (!res.error) setInput('');
    again();
  }

  return (
    <>
      <PageTitle actions={picker}>Suppressions</PageTitle>
      <div className="tabs" role="group" aria-label="List">
        {(Object.keys(KINDS) as Kind[]).map((k) => (
          <button key={k} type="button" aria-pressed={k === kind} onClick={() => (setKind(k), setPage(1))}>
            {KINDS[k].label}
          </button>
        ))}
      </div>
      <form className="row" onSubmit={submit} aria-label={`Add to ${KINDS[kind].label}`}>
        <label>
          Add {kind === 'blocklist' ? 'addresses' : 'recipients'} (one per line or comma-separated)
          <textarea rows={2} value={input} onChange={(e) => setInput(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={added.fetching || !input.trim()}>
          Add
        </button>
        <button type="button" onClick={() => download(kind, rows)} disabled={!rows.length}>
          Export CSV
        </button>
      </form>
      <ErrorNote error={error ?? added.error ?? removed.error} />
      <table aria-label={KINDS[kind].label}>
        <TableHead columns={['Entry', 'Added', 'Note']} actions />
        <tbody>
          {rows.map((r) => (
            <tr key={r.id}>
              <td>{r.value}</td>
              <td>
                <When at={r.created_at} />
              </td>
              <td>{r.note}</td>
              <td>
                <button type="button" className="small" aria-label={`Remove ${r.value}`} onClick={() => domainId && void remove({ d: domainId, ids: [r.id] }).then(again)}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager page={page} setPage={setPage} more={rows.length === 100} />
    </>
  );
}
