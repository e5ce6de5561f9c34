import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { CopyButton, ErrorNote, PageTitle, Pager, TableHead, When } from '../ui';

export const SCOPES = [
  'email_full', 'domains_read', 'domains_full', 'activity_read', 'activity_full', 'analytics_read', 'analytics_full',
  'tokens_full', 'webhooks_full', 'templates_full', 'suppressions_read', 'suppressions_full', 'sms_full', 'sms_read',
  'email_verification_read', 'email_verification_full', 'inbounds_full', 'recipients_read', 'recipients_full',
  'sender_identity_read', 'sender_identity_full', 'users_read', 'users_full', 'smtp_users_read', 'smtp_users_full',
  'dmarc_monitoring_read', 'dmarc_monitoring_full', 'blocklist_monitoring_read', 'blocklist_monitoring_full', 'whatsapp_full',
];

/** The areas scopes cover, each with the levels it has (`email` and `tokens` have full only). */
const AREAS = [...new Set(SCOPES.map((s) => s.replace(/_(read|full)$/, '')))].map((area) => ({
  area,
  levels: (['read', 'full'] as const).filter((l) => SCOPES.includes(`${area}_${l}`)),
}));
type Level = 'none' | 'read' | 'full';
const levelOf = (scopes: string[], area: string): Level => (scopes.includes(`${area}_full`) ? 'full' : scopes.includes(`${area}_read`) ? 'read' : 'none');
const withLevel = (scopes: string[], area: string, level: Level) => [
  ...scopes.filter((s) => s !== `${area}_read` && s !== `${area}_full`),
  ...(level === 'none' ? [] : [`${area}_${level}`]),
];
const label = (area: string) => area.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** One choice per area (none, read, full), the way most tokens are thought of; the raw scopes stay one click away. */
function ScopePicker({ scopes, setScopes }: { scopes: string[]; setScopes: (s: string[]) => void }) {
  return (
    <fieldset>
      <legend>Access</legend>
      <div className="row">
        <button type="button" className="small" onClick={() => setScopes(['email_full'])}>
          Sending only
        </button>
        <button type="button" className="small" onClick={() => setScopes(AREAS.filter((a) => a.levels.includes('read')).map((a) => `${a.area}_read`))}>
          Read everything
        </button>
        <button type="button" className="small" onClick={() => setScopes(AREAS.map((a) => `${a.area}_full`))}>
          Everything
        </button>
      </div>
      <div className="checks">
        {AREAS.map(({ area, levels }) => (
          <label key={area}>
            {label(area)}{' '}
            <select aria-label={`${label(area)} access`} value={levelOf(scopes, area)} onChange={(e) => setScopes(withLevel(scopes, area, e.target.value as Level))}>
              <option value="none">none</option>
              {levels.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      <details>
        <summary>Raw scopes ({scopes.length})</summary>
        <div className="checks">
          {SCOPES.map((s) => (
            <label key={s}>
              <input type="checkbox" checked={scopes.includes(s)} onChange={(e) => setScopes(e.target.checked ? [...scopes, s] : scopes.filter((x) => x !== s))} /> {s}
            </label>
          ))}
        </div>
      </details>
    </fieldset>
  );
}

const Tokens = graphql(`
  query ConsoleTokens($page: Int!) {
    tokens_page(limit: 25, page: $page) {
      data { id name status scopes created_at domain_id }
      meta { last_page }
    }
    domains(limit: 100, page: 1) { data { id name } }
  }
`);

const Create = graphql(`
  mutation ConsoleCreateToken($name: String!, $scopes: [String!]!, $domain: ID) {
    create_token(name: $name, scopes: $scopes, domain_id: $domain) { id name accessToken }
  }
`);

const Status = graphql(`
  mutation ConsoleTokenStatus($id: ID!, $status: String!) {
    update_token_settings(token_id: $id, status: $status) { id status }
  }
`);

const Delete = graphql(`mutation ConsoleDeleteToken($id: ID!) { delete_token(token_id: $id) }`);

export function TokensPage() {
  const [page, setPage] = useState(1);
  const [{ data, error }, refetch] = useQuery({ query: Tokens, variables: { page } });
  const [created, create] = useMutation(Create);
  const [changed, setStatus] = useMutation(Status);
  const [deleted, del] = useMutation(Delete);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['email_full']);
  const [domain, setDomain] = useState('');
  const again = () => refetch({ requestPolicy: 'network-only' });

  async function submit(e: FormEvent) {
    e.preventDefault();
    const res = await create({ name, scopes, domain: domain || null });
    if (!res.error) {
      setName('');
      again();
    }
  }

  const secret = created.data?.create_token;
  const domainNames = new Map((data?.domains.data ?? []).map((d) => [d.id, d.name]));
  return (
    <>
      <PageTitle>API tokens</PageTitle>
      {secret ? (
        <div className="secret" role="status">
          <p>
            Token <strong>{secret.name}</strong> created. Copy it now: it is not shown again.
          </p>
          <code className="wrap">{secret.accessToken}</code> <CopyButton value={secret.accessToken} label="Copy token" />
        </div>
      ) : null}
      <form className="stack" onSubmit={submit} aria-label="Create a token">
        <label>
          Name
          <input required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label>
          Domain
          <select aria-label="Limit to domain" value={domain} onChange={(e) => setDomain(e.target.value)}>
            <option value="">All domains</option>
            {data?.domains.data.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </select>
        </label>
        <ScopePicker scopes={scopes} setScopes={setScopes} />
        <button type="submit" className="primary" disabled={created.fetching || !scopes.length}>
          Create token
        </button>
      </form>
      <ErrorNote error={error ?? created.error ?? changed.error ?? deleted.error} />
      <table aria-label="Tokens">
        <TableHead columns={['Name', 'Status', 'Domain', 'Scopes', 'Created']} actions />
        <tbody>
          {data?.tokens_page.data.map((t) => (
            <tr key={t.id}>
              <td>{t.name}</td>
              <td>{t.status === 'pause' ? 'paused' : 'active'}</td>
              <td>{t.domain_id ? (domainNames.get(t.domain_id) ?? t.domain_id) : 'All domains'}</td>
              <td className="wrap small">{t.scopes.join(' ')}</td>
              <td>
                <When at={t.created_at} />
              </td>
              <td className="nowrap">
                <button type="button" className="small" onClick={() => void setStatus({ id: t.id, status: t.status === 'pause' ? 'unpause' : 'pause' }).then(again)}>
                  {t.status === 'pause' ? 'Unpause' : 'Pause'}
                </button>{' '}
                <button
                  type="button"
                  className="small danger"
                  onClick={() => window.confirm(`Delete token ${t.name}?`) && void del({ id: t.id }).then(again)}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager page={page} setPage={setPage} more={page < (data?.tokens_page.meta.last_page ?? 1)} />
    </>
  );
}
