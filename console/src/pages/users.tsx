import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote, Notice, PageTitle, TableHead, When } from '../ui';

const ROLES = ['admin', 'manager', 'designer', 'accountant', 'Custom User'];
const CUSTOM = 'Custom User';

/** What a Custom User may be given, in words; the server still refuses a grant its giver does not hold. */
const PERMISSION_LABELS: [string, string][] = [
  ['read-activity', 'See activity'],
  ['read-email', 'Read the email log'],
  ['read-analytics', 'See analytics'],
  ['manage-template', 'Edit templates'],
  ['control-sendings', 'Send email'],
  ['manage-domain', 'Manage domains'],
  ['manage-webhook', 'Manage webhooks'],
  ['read-suppressions', 'See suppressions'],
  ['manage-suppressions', 'Manage suppressions'],
  ['manage-api-token', 'Manage API tokens'],
  ['view-smtp-users', 'See SMTP users'],
  ['manage-smtp-users', 'Manage SMTP users'],
  ['read-sender-identities', 'See sender identities'],
  ['manage-sender-identities', 'Manage sender identities'],
  ['manage-inbound', 'Manage inbound routes'],
  ['read-email-verification', 'See email verification'],
  ['manage-email-verification', 'Verify email addresses'],
  ['manage-dmarc', 'Manage DMARC monitors'],
  ['manage-blocklist', 'Manage blocklist monitors'],
  ['read-sms', 'See SMS'],
  ['manage-sms', 'Send and manage SMS'],
];

/** Boxes to tick among `options`, as a list of their ids. */
function Picks({ legend, options, chosen, setChosen }: { legend: string; options: { id: string; label: string }[]; chosen: string[]; setChosen: (v: string[]) => void }) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {options.length ? null : <p className="muted small">None to choose from.</p>}
      <div className="checks">
        {options.map((o) => (
          <label key={o.id}>
            <input type="checkbox" checked={chosen.includes(o.id)} onChange={(e) => setChosen(e.target.checked ? [...chosen, o.id] : chosen.filter((x) => x !== o.id))} /> {o.label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const Users = graphql(`
  query ConsoleUsers {
    users(limit: 100, page: 1) { id email name last_name role two_fa domains { id name } templates { id name } }
    invites(limit: 100, page: 1) { id email role created_at }
  }
`);

const Choices = graphql(`
  query ConsoleInviteChoices {
    domains(limit: 100, page: 1) { data { id name } }
    templates(limit: 100, page: 1) { data { id name } }
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
  const [permissions, setPermissions] = useState<string[]>([]);
  const [domains, setDomains] = useState<string[]>([]);
  const [templates, setTemplates] = useState<string[]>([]);
  const [{ data: choices }] = useQuery({ query: Choices });
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
    const custom = role === CUSTOM;
    const res = await invite({
      email,
      role,
      permissions: custom ? permissions : null,
      domains: domains.length ? domains : null,
      templates: templates.length ? templates : null,
    });
    if (!res.error) (setEmail(''), setPermissions([]), setDomains([]), setTemplates([]), again());
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
          <select aria-label="Role" value={role} onChange={(e) => setRole(e.target.value)}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={invited.fetching || (role === CUSTOM && !permissions.length)}>
          Send invite
        </button>
      </form>
      {role === CUSTOM ? (
        <div className="stack">
          <Picks legend="What they may do" options={PERMISSION_LABELS.map(([id, label]) => ({ id, label }))} chosen={permissions} setChosen={setPermissions} />
        </div>
      ) : null}
      <details>
        <summary>Limit to some domains or templates</summary>
        <div className="stack">
          <Picks legend="Domains (none ticked: all)" options={(choices?.domains.data ?? []).map((d) => ({ id: d.id, label: d.name }))} chosen={domains} setChosen={setDomains} />
          <Picks legend="Templates (none ticked: all)" options={(choices?.templates.data ?? []).map((t) => ({ id: t.id, label: t.name }))} chosen={templates} setChosen={setTemplates} />
        </div>
      </details>
      {invited.data ? <Notice>Invitation sent to {invited.data.invite_user.email}.</Notice> : null}
      {resent.data ? <Notice>Invitation sent again.</Notice> : null}
      <ErrorNote error={error ?? invited.error ?? delUserState.error ?? roleState.error} />
      <h2>Users</h2>
      <table>
        <TableHead columns={['Email', 'Name', 'Role', 'Limited to', '2FA']} actions />
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
              <td className="small">{[...u.domains.map((d) => d.name), ...u.templates.map((t) => `template ${t.name}`)].join(', ') || 'everything'}</td>
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
