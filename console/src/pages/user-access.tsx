import { useEffect, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote, Notice, PageTitle } from '../ui';

export const ROLES = ['admin', 'manager', 'designer', 'accountant', 'Custom User'];
export const CUSTOM = 'Custom User';

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

const Choices = graphql(`
  query ConsoleAccessChoices {
    domains(limit: 100, page: 1) { data { id name } }
    templates(limit: 100, page: 1) { data { id name } }
  }
`);

/** What a person may do and reach: a role, a Custom User's permissions, and the domains and templates it is limited to. */
export interface Access {
  role: string;
  permissions: string[];
  domains: string[];
  templates: string[];
}

export const NO_LIMITS: Access = { role: 'manager', permissions: [], domains: [], templates: [] };

/**
 * The arguments invite_user and update_user take for an Access: permissions only for a Custom
 * User; the limits always as lists, an empty one for no limit (update_user keeps a limit it is
 * not given).
 */
export function accessArguments(a: Access) {
  return { role: a.role, permissions: a.role === CUSTOM ? a.permissions : null, domains: a.domains, templates: a.templates };
}

/** A Custom User with nothing ticked could do nothing: the forms wait for one permission. */
export const accessComplete = (a: Access) => a.role !== CUSTOM || a.permissions.length > 0;

/** The role select, and under it a Custom User's permissions and the limits, folded while none is set. */
export function AccessFields({ access, setAccess, roleLabel = 'Role' }: { access: Access; setAccess: (a: Access) => void; roleLabel?: string }) {
  const [{ data: choices }] = useQuery({ query: Choices });
  const set = (part: Partial<Access>) => setAccess({ ...access, ...part });
  const limited = access.domains.length + access.templates.length > 0;
  return (
    <>
      <label>
        {roleLabel}
        <select aria-label={roleLabel} value={access.role} onChange={(e) => set({ role: e.target.value })}>
          {ROLES.includes(access.role) ? null : <option>{access.role}</option>}
          {ROLES.map((r) => (
            <option key={r}>{r}</option>
          ))}
        </select>
      </label>
      {access.role === CUSTOM ? (
        <div className="stack">
          <Picks legend="What they may do" options={PERMISSION_LABELS.map(([id, label]) => ({ id, label }))} chosen={access.permissions} setChosen={(permissions) => set({ permissions })} />
        </div>
      ) : null}
      <details open={limited || undefined}>
        <summary>Limit to some domains or templates</summary>
        <div className="stack">
          <Picks legend="Domains (none ticked: all)" options={(choices?.domains.data ?? []).map((d) => ({ id: d.id, label: d.name }))} chosen={access.domains} setChosen={(domains) => set({ domains })} />
          <Picks legend="Templates (none ticked: all)" options={(choices?.templates.data ?? []).map((t) => ({ id: t.id, label: t.name }))} chosen={access.templates} setChosen={(templates) => set({ templates })} />
        </div>
      </details>
    </>
  );
}

const User = graphql(`
  query ConsoleUser($id: ID!) {
    user(user_id: $id) { id email role permissions domains { id } templates { id } }
  }
`);

const Update = graphql(`
  mutation ConsoleUpdateUser($id: ID!, $role: String!, $permissions: [String!], $domains: [String!], $templates: [String!]) {
    update_user(user_id: $id, role: $role, permissions: $permissions, domains: $domains, templates: $templates) { id role permissions domains { id } templates { id } }
  }
`);

/** One person's access, changed in place: `#/users/<id>`. */
export function UserAccess({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: User, variables: { id } });
  const [updated, update] = useMutation(Update);
  const [access, setAccess] = useState<Access | null>(null);
  const user = data?.user;
  useEffect(() => {
    if (user) setAccess({ role: user.role, permissions: user.permissions, domains: user.domains.map((d) => d.id), templates: user.templates.map((t) => t.id) });
  }, [user]);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (access) await update({ id, ...accessArguments(access) });
  }
  return (
    <>
      <PageTitle>{user ? `Access of ${user.email}` : 'Access'}</PageTitle>
      <p>
        <a href="#/users">All users</a>
      </p>
      <ErrorNote error={error ?? updated.error} />
      {access ? (
        <form className="stack" onSubmit={submit} aria-label="Access">
          <AccessFields access={access} setAccess={setAccess} />
          <div>
            <button type="submit" className="primary" disabled={updated.fetching || !accessComplete(access)}>
              Save access
            </button>
          </div>
        </form>
      ) : null}
      {updated.data && !updated.error ? <Notice>Saved. It applies to their next request.</Notice> : null}
    </>
  );
}
