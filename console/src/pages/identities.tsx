import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { Empty, ErrorNote, Notice, PageTitle, TableHead, useDomainChoice } from '../ui';

const Identities = graphql(`
  query ConsoleIdentities($domain: ID) {
    sender_identities(domain_id: $domain, limit: 100, page: 1) { id email name is_verified reply_to_email resends domain { id name } }
  }
`);

const Create = graphql(`
  mutation ConsoleCreateIdentity($domain: ID!, $email: String!, $name: String, $reply: String) {
    create_sender_identity(domain_id: $domain, email: $email, name: $name, reply_to_email: $reply) { id email }
  }
`);

const Resend = graphql(`mutation ConsoleResendIdentity($id: ID!) { resend_sender_identity(identity_id: $id) { id resends } }`);
const Delete = graphql(`mutation ConsoleDeleteIdentity($id: ID!) { delete_sender_identity(identity_id: $id) }`);

/**
 * Sender identities: addresses of a domain the account sends from, each confirmed by its owner
 * through a mail (resent on demand) before it can be used.
 */
export function IdentitiesPage() {
  const { domainId, domainName, picker } = useDomainChoice();
  const [{ data, error }, refetch] = useQuery({ query: Identities, variables: { domain: domainId }, pause: !domainId });
  const [created, create] = useMutation(Create);
  const [resent, resend] = useMutation(Resend);
  const [deleted, del] = useMutation(Delete);
  const [local, setLocal] = useState('');
  const [name, setName] = useState('');
  const [reply, setReply] = useState('');
  const again = () => refetch({ requestPolicy: 'network-only' });
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!domainId || !domainName) return;
    const res = await create({ domain: domainId, email: `${local.trim()}@${domainName}`, name: name || null, reply: reply || null });
    if (!res.error) (setLocal(''), setName(''), setReply(''), again());
  }
  const rows = data?.sender_identities ?? [];
  return (
    <>
      <PageTitle actions={picker}>Sender identities</PageTitle>
      <form className="row" onSubmit={submit} aria-label="Add a sender identity">
        <label>
          Address
          <span className="inline">
            <input required value={local} onChange={(e) => setLocal(e.target.value)} aria-label="Address, before the @" /> @{domainName ?? '…'}
          </span>
        </label>
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Reply-to
          <input type="email" value={reply} onChange={(e) => setReply(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={created.fetching || !domainId}>
          Add identity
        </button>
      </form>
      {created.data ? <Notice>A confirmation mail went to {created.data.create_sender_identity.email}; it can send once confirmed.</Notice> : null}
      {resent.data ? <Notice>Confirmation mail sent again.</Notice> : null}
      <ErrorNote error={error ?? created.error ?? resent.error ?? deleted.error} />
      <Empty when={!!data && !rows.length}>No sender identity on this domain. An identity is an address you send from, confirmed by a mail to it.</Empty>
      {rows.length ? (
        <table aria-label="Sender identities">
          <TableHead columns={['Address', 'Name', 'Reply-to', 'Status']} actions />
          <tbody>
            {rows.map((i) => (
              <tr key={i.id}>
                <td className="wrap">{i.email}</td>
                <td>{i.name}</td>
                <td className="wrap">{i.reply_to_email ?? '—'}</td>
                <td>{i.is_verified ? 'confirmed' : 'waiting for confirmation'}</td>
                <td className="nowrap">
                  {i.is_verified ? null : (
                    <button type="button" className="small" onClick={() => void resend({ id: i.id })}>
                      Resend confirmation
                    </button>
                  )}{' '}
                  <button type="button" className="small danger" onClick={() => window.confirm(`Delete ${i.email}?`) && void del({ id: i.id }).then(again)}>
                    Delete
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
