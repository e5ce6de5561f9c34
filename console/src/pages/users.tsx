import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote, Notice, PageTitle, TableHead, When } from '../ui';
import { AccessFields, accessArguments, accessComplete, NO_LIMITS, UserAccess, type Access } from './user-access';

const Users = graphql(`
  query ConsoleUsers {
    users(limit: 100, page: 1) { id email name last_name role two_fa domains { id name } templates { id name } }
    invites(limit: 100, page: 1) { id email role created_at }
  }
`);

const Invite = graphql(`
  mutation ConsoleInvite($email: String!, $role: String!, $permissions: [String!], $domains: [String!], $templates: [String!]) {
    invite_user(email: $email, role: $role, permissions: $permissions, domains: $domains, templates: $templates) { id email }
  }
`);

const Resend = graphql(`mutation ConsoleResendInvite($id: ID!) { resend_invite(invite_id: $id) { id } }`);
const DeleteInvite = graphql(`mutation ConsoleDeleteInvite($id: ID!) { delete_invite(invite_id: $id) }`);
const DeleteUser = graphql(`mutation ConsoleDeleteUser($id: ID!) { delete_user(user_id: $id) }`);

export function UsersPage({ rest }: { rest: string[] }) {
  return rest[0] ? <UserAccess id={rest[0]} /> : <UserList />;
}

function UserList() {
  const [{ data, error }, refetch] = useQuery({ query: Users });
  const [invited, invite] = useMutation(Invite);
  const [resent, resend] = useMutation(Resend);
  const [, delInvite] = useMutation(DeleteInvite);
  const [delUserState, delUser] = useMutation(DeleteUser);
  const [email, setEmail] = useState('');
  const [access, setAccess] = useState<Access>(NO_LIMITS);
  const again = () => refetch({ requestPolicy: 'network-only' });
  // An invitation accepted elsewhere moves its person from the invites to the users: the list
  // is read again when the tab comes back into view, and every 15 s while invites are pending.
  const pending = (data?.invites.length ?? 0) > 0;
  useEffect(() => {
    const onVisible = () => document.visibilityState === 'visible' && refetch({ requestPolicy: 'network-only' });
    document.addEventListener('visibilitychange', onVisible);
    const timer = pending ? setInterval(() => refetch({ requestPolicy: 'network-only' }), 15_000) : undefined;
    return () => (document.removeEventListener('visibilitychange', onVisible), clearInterval(timer));
  }, [pending, refetch]);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const res = await invite({ email, ...accessArguments(access) });
    if (!res.error) (setEmail(''), setAccess(NO_LIMITS), again());
  }
  return (
    <>
      <PageTitle>Users and invites</PageTitle>
      <form className="stack" onSubmit={submit} aria-label="Invite a user">
        <label>
          Email
          <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <AccessFields access={access} setAccess={setAccess} />
        <div>
          <button type="submit" className="primary" disabled={invited.fetching || !accessComplete(access)}>
            Send invite
          </button>
        </div>
      </form>
      {invited.data ? <Notice>Invitation sent to {invited.data.invite_user.email}.</Notice> : null}
      {resent.data ? <Notice>Invitation sent again.</Notice> : null}
      <ErrorNote error={error ?? invited.error ?? delUserState.error} />
      <h2>Users</h2>
      <table>
        <TableHead columns={['Email', 'Name', 'Role', 'Limited to', '2FA']} actions />
        <tbody>
          {data?.users.map((u) => (
            <tr key={u.id}>
              <td>{u.email}</td>
              <td>{`${u.name} ${u.last_name}`.trim()}</td>
              <td>{u.role}</td>
              <td className="small">{[...u.domains.map((d) => d.name), ...u.templates.map((t) => `template ${t.name}`)].join(', ') || 'everything'}</td>
              <td>{u.two_fa ? 'on' : 'off'}</td>
              <td className="nowrap">
                <a className="button small" href={`#/users/${u.id}`} aria-label={`Edit access of ${u.email}`}>
                  Edit access
                </a>{' '}
                <button type="button" className="small danger" onClick={() => window.confirm(`Remove ${u.email}?`) && void delUser({ id: u.id }).then(again)}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Pending invites</h2>
      <table>
        <TableHead columns={['Email', 'Role', 'Sent']} actions />
        <tbody>
          {data?.invites.map((i) => (
            <tr key={i.id}>
              <td>{i.email}</td>
              <td>{i.role}</td>
              <td>
                <When at={i.created_at} />
              </td>
              <td className="nowrap">
                <button type="button" className="small" onClick={() => void resend({ id: i.id })}>
                  Resend
                </button>{' '}
                <button type="button" className="small danger" onClick={() => void delInvite({ id: i.id }).then(again)}>
                  Cancel
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
