import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote, Notice, PageTitle, TableHead, When } from '../ui';

const ROLES = ['admin', 'manager', 'designer', 'accountant'];

const Users = graphql(`
  query ConsoleUsers {
    users(limit: 100, page: 1) { id email name last_name role two_fa }
    invites(limit: 100, page: 1) { id email role created_at }
  }
`);

const Invite = graphql(`
  mutation ConsoleInvite($email: String!, $role: String!) {
    invite_user(email: $email, role: $role) { id email }
  }
`);

const Resend = graphql(`mutation ConsoleResendInvite($id: ID!) { resend_invite(invite_id: $id) { id } }`);
const DeleteInvite = graphql(`mutation ConsoleDeleteInvite($id: ID!) { delete_invite(invite_id: $id) }`);
const DeleteUser = graphql(`mutation ConsoleDeleteUser($id: ID!) { delete_user(user_id: $id) }`);
const ChangeRole = graphql(`mutation ConsoleChangeRole($id: ID!, $role: String!) { update_user(user_id: $id, role: $role) { id role } }`);

export function UsersPage() {
  const [{ data, error }, refetch] = useQuery({ query: Users });
  const [invited, invite] = useMutation(Invite);
  const [resent, resend] = useMutation(Resend);
  const [, delInvite] = useMutation(DeleteInvite);
  const [delUserState, delUser] = useMutation(DeleteUser);
  const [roleState, changeRole] = useMutation(ChangeRole);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('manager');
  const again = () => refetch({ requestPolicy: 'network-only' });
  async function submit(e: FormEvent) {
    e.preventDefault();
    const res = await invite({ email, role });
    if (!res.error) (setEmail(''), again());
  }
  return (
    <>
      <PageTitle>Users and invites</PageTitle>
      <form className="row" onSubmit={submit} aria-label="Invite a user">
        <label>
          Email
          <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label>
          Role
          <select value={role} onChange={(e) => setRole(e.target.value)}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={invited.fetching}>
          Send invite
        </button>
      </form>
      {invited.data ? <Notice>Invitation sent to {invited.data.invite_user.email}.</Notice> : null}
      {resent.data ? <Notice>Invitation sent again.</Notice> : null}
      <ErrorNote error={error ?? invited.error ?? delUserState.error ?? roleState.error} />
      <h2>Users</h2>
      <table>
        <TableHead columns={['Email', 'Name', 'Role', '2FA']} actions />
        <tbody>
          {data?.users.map((u) => (
            <tr key={u.id}>
              <td>{u.email}</td>
              <td>{`${u.name} ${u.last_name}`.trim()}</td>
              <td>
                <select aria-label={`Role of ${u.email}`} value={ROLES.includes(u.role) ? u.role : ''} onChange={(e) => void changeRole({ id: u.id, role: e.target.value }).then(again)}>
                  {ROLES.includes(u.role) ? null : <option value="">{u.role}</option>}
                  {ROLES.map((r) => (
                    <option key={r}>{r}</option>
                  ))}
                </select>
              </td>
              <td>{u.two_fa ? 'on' : 'off'}</td>
              <td>
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
