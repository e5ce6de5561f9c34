import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { CopyButton, ErrorNote, PageTitle, useDomainChoice, TableHead, Empty } from '../ui';

const Users = graphql(`
  query ConsoleSmtpUsers($domain: ID!) {
    smtp_users(domain_id: $domain, limit: 100, page: 1) { id name username enabled server port accessed_at }
  }
`);

const Create = graphql(`
  mutation ConsoleCreateSmtpUser($domain: ID!, $name: String!) {
    create_smtp_user(domain_id: $domain, name: $name) { id name username password server port }
  }
`);

const Toggle = graphql(`
  mutation ConsoleToggleSmtpUser($domain: ID!, $id: ID!, $enabled: Boolean!) {
    update_smtp_user(domain_id: $domain, smtp_user_id: $id, enabled: $enabled) { id enabled }
  }
`);

const Delete = graphql(`mutation ConsoleDeleteSmtpUser($domain: ID!, $id: ID!) { delete_smtp_user(domain_id: $domain, smtp_user_id: $id) }`);

export function SmtpUsersPage() {
  const { domainId, picker } = useDomainChoice();
  const [{ data, error }, refetch] = useQuery({ query: Users, variables: { domain: domainId ?? '' }, pause: !domainId });
  const [created, create] = useMutation(Create);
  const [toggled, toggle] = useMutation(Toggle);
  const [deleted, del] = useMutation(Delete);
  const [name, setName] = useState('');
  const again = () => refetch({ requestPolicy: 'network-only' });
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!domainId) return;
    const res = await create({ domain: domainId, name });
    if (!res.error) (setName(''), again());
  }
  const fresh = created.data?.create_smtp_user;
  return (
    <>
      <PageTitle actions={picker}>SMTP users</PageTitle>
      {fresh ? (
        <div className="secret" role="status">
          <p>
            SMTP user <strong>{fresh.name}</strong>: {fresh.server}:{fresh.port}, username <code>{fresh.username}</code>. The password is shown once:
          </p>
          <code>{fresh.password}</code> <CopyButton value={fresh.password} label="Copy password" />
        </div>
      ) : null}
      <form className="row" onSubmit={submit} aria-label="Create an SMTP user">
        <label>
          Name
          <input required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={created.fetching}>
          Create SMTP user
        </button>
      </form>
      <ErrorNote error={error ?? created.error ?? toggled.error ?? deleted.error} />
      <Empty when={!!data && !data.smtp_users.length}>No SMTP user. One lets an application send over SMTP with a username and password instead of the API.</Empty>
      <table>
        <TableHead columns={['Name', 'Username', 'Server', 'Last used']} actions />
        <tbody>
          {data?.smtp_users.map((u) => (
            <tr key={u.id}>
              <td>{u.name}</td>
              <td>
                <code>{u.username}</code> <CopyButton value={u.username} label="Copy username" />
              </td>
              <td>
                {u.server}:{u.port}
              </td>
              <td>{u.accessed_at ?? 'never'}</td>
              <td className="nowrap">
                <button type="button" className="small" onClick={() => domainId && void toggle({ domain: domainId, id: u.id, enabled: !u.enabled }).then(again)}>
                  {u.enabled ? 'Disable' : 'Enable'}
                </button>{' '}
                <button type="button" className="small danger" onClick={() => domainId && window.confirm(`Delete ${u.name}?`) && void del({ domain: domainId, id: u.id }).then(again)}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
