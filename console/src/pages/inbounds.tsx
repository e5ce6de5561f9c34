import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, type CombinedError } from 'urql';
import { graphql } from '../gql';
import type { ConsoleCreateInboundMutation, ConsoleInboundQuery, ConsoleInboundsQuery } from '../gql/graphql';
import { CopyButton, Empty, ErrorNote, Notice, PageTitle, Pager, TableHead, When, go, useDomainChoice } from '../ui';

// The server's limits (src/modules/inbound/inbound.inputs.ts): the form offers no more than it accepts.
const LIMITS = { name: 191, forwards: 10, forwardValue: 191 };

const Routes = graphql(`
  query ConsoleInbounds($domain: ID!, $page: Int!) {
    inbounds_page(domain_id: $domain, limit: 25, page: $page) {
      data { id name address enabled domain_enabled inbound_domain created_at forwards { id type value } }
      meta { current_page last_page }
    }
  }
`);

const Route = graphql(`
  query ConsoleInbound($id: ID!) {
    inbound(inbound_id: $id) {
      id name address enabled domain_enabled inbound_domain dns_checked_at created_at
      domain { id name }
      catch_filter { type }
      match_filter { type }
      forwards { id type value confirmation secret }
      mxValues { priority target }
    }
  }
`);

const Create = graphql(`
  mutation ConsoleCreateInbound(
    $domain: ID!, $name: String!, $forwards: [InboundForwardInput!]!, $enabled: Boolean, $domainEnabled: Boolean, $inboundDomain: String
  ) {
    create_inbound(domain_id: $domain, name: $name, forwards: $forwards, enabled: $enabled, domain_enabled: $domainEnabled, inbound_domain: $inboundDomain) {
      id name address domain_enabled inbound_domain mxValues { priority target } forwards { id type value confirmation }
    }
  }
`);

const Update = graphql(`
  mutation ConsoleUpdateInbound(
    $id: ID!, $name: String, $forwards: [InboundForwardInput!], $enabled: Boolean, $domainEnabled: Boolean, $inboundDomain: String
  ) {
    update_inbound(inbound_id: $id, name: $name, forwards: $forwards, enabled: $enabled, domain_enabled: $domainEnabled, inbound_domain: $inboundDomain) {
      id name enabled domain_enabled inbound_domain forwards { id type value confirmation secret }
    }
  }
`);

const Delete = graphql(`mutation ConsoleDeleteInbound($id: ID!) { delete_inbound(inbound_id: $id) }`);

type Kind = 'email' | 'webhook';
interface Forward {
  type: Kind;
  value: string;
}
interface RouteValues {
  name: string;
  forwards: Forward[];
  enabled: boolean;
  domain_enabled: boolean;
  inbound_domain: string;
}
type RouteRecord = ConsoleInboundQuery['inbound'];

const KIND_LABEL: Record<Kind, string> = { email: 'email address', webhook: 'webhook URL' };
const BLANK: RouteValues = { name: '', forwards: [{ type: 'email', value: '' }], enabled: true, domain_enabled: false, inbound_domain: '' };
const kindOf = (type: string): Kind => (type === 'webhook' ? 'webhook' : 'email');
const cleanForwards = (list: Forward[]) => list.map((f) => ({ type: f.type, value: f.value.trim() }));

/**
 * Inbound routes: mail received at a route's own address (or, when domain routing is on, at any
 * address of a subdomain whose MX points here) is forwarded to email addresses or webhook URLs.
 */
export function InboundsPage({ rest }: { rest: string[] }) {
  return rest[0] ? <InboundDetail id={rest[0]} /> : <InboundList />;
}

function InboundList() {
  const { domainId, domainName, picker } = useDomainChoice();
  const [paged, setPaged] = useState({ domain: domainId, page: 1 });
  // Another domain starts again at its first page.
  const page = paged.domain === domainId ? paged.page : 1;
  const [{ data, error }, refetch] = useQuery({ query: Routes, variables: { domain: domainId ?? '', page }, pause: !domainId });
  const rows = data?.inbounds_page.data ?? [];
  const meta = data?.inbounds_page.meta;
  return (
    <>
      <PageTitle actions={picker}>Inbound routes</PageTitle>
      <ErrorNote error={error} />
      <Empty when={!!data && !rows.length && page === 1}>
        No inbound route on this domain yet. An inbound route receives mail at an address of its own (or at any address of a subdomain you
        point to this service) and forwards each message to email addresses or to a webhook URL as JSON. Create one with the form below.
      </Empty>
      {rows.length ? <RouteTable rows={rows} /> : null}
      {meta && meta.last_page > 1 ? <Pager page={page} setPage={(p) => setPaged({ domain: domainId, page: p })} more={meta.current_page < meta.last_page} /> : null}
      <NewRoute domainId={domainId} domainName={domainName} onCreated={() => refetch({ requestPolicy: 'network-only' })} />
    </>
  );
}

type ListedRoute = ConsoleInboundsQuery['inbounds_page']['data'][number];

function RouteTable({ rows }: { rows: ListedRoute[] }) {
  return (
    <table aria-label="Inbound routes">
      <TableHead columns={['Name', 'Address', 'Status', 'Forwards to', 'Created']} />
      <tbody>
        {rows.map((r) => (
          <tr key={r.id}>
            <td>
              <a href={`#/inbound/${r.id}`}>{r.name}</a>
            </td>
            <td>
              <code className="wrap">{r.address}</code> <CopyButton value={r.address} label="Copy address" />
            </td>
            <td>
              {r.enabled ? 'enabled' : 'disabled'}
              {r.domain_enabled && r.inbound_domain ? <div className="muted small">also mail for {r.inbound_domain}</div> : null}
            </td>
            <td className="wrap">
              {r.forwards.map((f) => (
                <div key={f.id}>
                  <span className="badge">{f.type}</span> {f.value}
                </div>
              ))}
            </td>
            <td>
              <When at={r.created_at} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

type CreatedRoute = ConsoleCreateInboundMutation['create_inbound'];

function NewRoute({ domainId, domainName, onCreated }: { domainId: string | null; domainName: string | null; onCreated: () => void }) {
  const [created, create] = useMutation(Create);
  // Bumped after a create, so the form starts blank for the next route.
  const [round, setRound] = useState(0);
  async function submit(v: RouteValues) {
    if (!domainId) return;
    const res = await create({
      domain: domainId,
      name: v.name.trim(),
      forwards: cleanForwards(v.forwards),
      enabled: v.enabled,
      domainEnabled: v.domain_enabled,
      inboundDomain: v.domain_enabled ? v.inbound_domain.trim() || null : null,
    });
    if (!res.error) (setRound(round + 1), onCreated());
  }
  const fresh = created.error ? undefined : created.data?.create_inbound;
  return (
    <section aria-labelledby="new-route">
      <h2 id="new-route">New inbound route</h2>
      {fresh ? <Created route={fresh} /> : null}
      <InboundForm
        key={`${domainId}|${round}`}
        label="New inbound route"
        domainName={domainName}
        submitLabel="Create route"
        busy={created.fetching || !domainId}
        error={created.error}
        onSubmit={submit}
      />
    </section>
  );
}

function Created({ route }: { route: CreatedRoute }) {
  const pending = route.forwards.filter((f) => f.confirmation === 'pending').map((f) => f.value);
  return (
    <div className="notice" role="status">
      <p>
        Created <a href={`#/inbound/${route.id}`}>{route.name}</a>. Mail sent to <code className="wrap">{route.address}</code>{' '}
        <CopyButton value={route.address} label="Copy address" /> is routed now.
      </p>
      {pending.length ? <p>A confirmation link was mailed to {pending.join(', ')}: nothing is forwarded there until it is opened.</p> : null}
      {route.domain_enabled && route.inbound_domain ? (
        <>
          <p>To receive mail for {route.inbound_domain}, publish this record in its DNS:</p>
          <MxRecord host={route.inbound_domain} mx={route.mxValues} />
        </>
      ) : null}
    </div>
  );
}

function MxRecord({ host, mx }: { host: string; mx: { priority: number; target: string } }) {
  return (
    <table aria-label="MX record to publish">
      <TableHead columns={['Type', 'Host', 'Priority', 'Value']} />
      <tbody>
        <tr>
          <td>MX</td>
          <td>
            <code className="wrap">{host}</code> <CopyButton value={host} label="Copy host" />
          </td>
          <td>{mx.priority}</td>
          <td>
            <code className="wrap">{mx.target}</code> <CopyButton value={mx.target} label="Copy value" />
          </td>
        </tr>
      </tbody>
    </table>
  );
}

/** The server's validation messages by field (`forwards.1.value`), when the error is one. */
function fieldErrors(error?: CombinedError): Record<string, string[]> {
  const errors = error?.graphQLErrors[0]?.extensions?.errors;
  return errors && typeof errors === 'object' ? (errors as Record<string, string[]>) : {};
}

/** A message about `forwards.1.value` says "forward 2 (webhook URL)": the rows as the form numbers them. */
function readable(message: string, forwards: Forward[]): string {
  return message.replace(/forwards\.(\d+)\.(value|type)/g, (_m, index: string, part: string) => {
    const n = Number(index);
    if (part === 'type') return `kind of forward ${n + 1}`;
    const kind = forwards[n]?.type;
    return `forward ${n + 1}${kind ? ` (${KIND_LABEL[kind]})` : ''}`;
  });
}

/** Why a save was refused, next to the form: each field's problem, in the form's words. */
function SaveError({ error, forwards }: { error?: CombinedError; forwards: Forward[] }) {
  const fields = Object.values(fieldErrors(error)).flat();
  if (!error || !fields.length) return <ErrorNote error={error} />;
  return (
    <div className="error" role="alert">
      Nothing was saved:
      <ul>
        {fields.map((m) => (
          <li key={m}>{readable(String(m), forwards)}</li>
        ))}
      </ul>
    </div>
  );
}

function ForwardsEditor({ forwards, onChange, invalid }: { forwards: Forward[]; onChange: (f: Forward[]) => void; invalid: (i: number) => boolean }) {
  const set = (i: number, f: Partial<Forward>) => onChange(forwards.map((x, j) => (j === i ? { ...x, ...f } : x)));
  return (
    <fieldset>
      <legend>Forward to</legend>
      {forwards.map((f, i) => (
        <div className="row" key={i}>
          <select aria-label={`Forward ${i + 1} kind`} value={f.type} onChange={(e) => set(i, { type: kindOf(e.target.value) })}>
            <option value="email">Email address</option>
            <option value="webhook">Webhook URL</option>
          </select>
          <input
            required
            type={f.type === 'email' ? 'email' : 'url'}
            maxLength={LIMITS.forwardValue}
            aria-label={`Forward ${i + 1} ${KIND_LABEL[f.type]}`}
            aria-invalid={invalid(i) || undefined}
            placeholder={f.type === 'email' ? 'team@example.com' : 'https://example.com/inbound'}
            style={{ flex: '1 1 14rem' }}
            value={f.value}
            onChange={(e) => set(i, { value: e.target.value })}
          />
          {forwards.length > 1 ? (
            <button type="button" className="small" aria-label={`Remove forward ${i + 1}`} onClick={() => onChange(forwards.filter((_, j) => j !== i))}>
              Remove
            </button>
          ) : null}
        </div>
      ))}
      {forwards.length < LIMITS.forwards ? (
        <button type="button" className="small" onClick={() => onChange([...forwards, { type: 'email', value: '' }])}>
          Add a forward
        </button>
      ) : null}
      <p className="muted small">
        Every message goes to each forward. An address outside your verified domains is mailed a confirmation link and gets nothing until it
        is opened; a webhook URL receives the message as signed JSON.
      </p>
    </fieldset>
  );
}

function DomainRouting({ v, set, domainName, invalid }: { v: RouteValues; set: (p: Partial<RouteValues>) => void; domainName: string | null; invalid: boolean }) {
  const parent = domainName ?? 'the domain';
  return (
    <>
      <label className="inline">
        <input type="checkbox" checked={v.domain_enabled} onChange={(e) => set({ domain_enabled: e.target.checked })} /> Also route mail for a
        subdomain of {parent}
      </label>
      {v.domain_enabled ? (
        <>
          <label>
            Inbound domain
            <input
              required
              value={v.inbound_domain}
              placeholder={`inbound.${parent}`}
              aria-invalid={invalid || undefined}
              aria-describedby="inbound-domain-hint"
              onChange={(e) => set({ inbound_domain: e.target.value })}
            />
          </label>
          <p id="inbound-domain-hint" className="muted small">
            Mail to any address at it is routed here once its MX record points to this service: the record is shown after saving.
          </p>
        </>
      ) : null}
    </>
  );
}

function InboundForm(props: {
  initial?: RouteValues;
  label: string;
  domainName: string | null;
  submitLabel: string;
  busy: boolean;
  error?: CombinedError;
  onSubmit: (v: RouteValues) => Promise<void>;
}) {
  const [v, setV] = useState<RouteValues>(props.initial ?? BLANK);
  const set = (p: Partial<RouteValues>) => setV({ ...v, ...p });
  const fields = fieldErrors(props.error);
  async function submit(e: FormEvent) {
    e.preventDefault();
    await props.onSubmit(v);
  }
  return (
    <form className="stack" onSubmit={submit} aria-label={props.label}>
      <label>
        Name
        <input required maxLength={LIMITS.name} value={v.name} aria-invalid={!!fields.name || undefined} onChange={(e) => set({ name: e.target.value })} />
      </label>
      <ForwardsEditor forwards={v.forwards} onChange={(forwards) => set({ forwards })} invalid={(i) => !!(fields[`forwards.${i}.value`] ?? fields[`forwards.${i}.type`])} />
      <DomainRouting v={v} set={set} domainName={props.domainName} invalid={!!fields.inbound_domain} />
      <label className="inline">
        <input type="checkbox" checked={v.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> Enabled
      </label>
      <SaveError error={props.error} forwards={v.forwards} />
      <div>
        <button type="submit" className="primary" disabled={props.busy}>
          {props.submitLabel}
        </button>
      </div>
    </form>
  );
}

function InboundDetail({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: Route, variables: { id } });
  const route = data?.inbound;
  if (!route) {
    return (
      <>
        <PageTitle>Inbound route</PageTitle>
        {error ? <ErrorNote error={error} /> : <p>Loading…</p>}
      </>
    );
  }
  return (
    <>
      <PageTitle
        actions={
          <a className="button" href="#/inbound">
            All inbound routes
          </a>
        }
      >
        Inbound route: {route.name}
      </PageTitle>
      <p className="muted">
        Domain {route.domain.name} · {route.enabled ? 'enabled' : 'disabled: it receives nothing'} · created <When at={route.created_at} />
      </p>
      <RouteAddresses route={route} />
      <ForwardStates route={route} />
      <EditRoute route={route} />
      <DeleteRoute id={route.id} name={route.name} />
    </>
  );
}

function RouteAddresses({ route }: { route: RouteRecord }) {
  return (
    <section aria-labelledby="route-addresses">
      <h2 id="route-addresses">Where it receives mail</h2>
      <p>
        Mail sent to <code className="wrap">{route.address}</code> <CopyButton value={route.address} label="Copy address" /> is routed here
        {route.enabled ? '.' : ' once the route is enabled.'}
      </p>
      {route.domain_enabled && route.inbound_domain ? (
        <>
          <p>Mail for any address at {route.inbound_domain} is routed here too, once this record is published in its DNS:</p>
          <MxRecord host={route.inbound_domain} mx={route.mxValues} />
          <p className="muted small">
            Domain DNS last checked: <When at={route.dns_checked_at} />
          </p>
        </>
      ) : (
        <p className="muted small">Mail for a whole subdomain of {route.domain.name} can be routed here too: turn it on below.</p>
      )}
    </section>
  );
}

const CONFIRMATION: Record<string, string> = {
  domain: 'on a verified domain of the account',
  confirmed: 'confirmed by its owner',
  pending: 'waiting for its owner to open the confirmation link mailed to it: nothing is forwarded there until then',
};

function ForwardStates({ route }: { route: RouteRecord }) {
  const filtered = route.catch_filter.type !== 'catch_all' || route.match_filter.type !== 'match_all';
  return (
    <section aria-labelledby="route-forwards">
      <h2 id="route-forwards">Forwards</h2>
      <ol>
        {route.forwards.map((f, i) => (
          <li key={f.id}>
            <span className="badge">{f.type}</span> <code className="wrap">{f.value}</code>{' '}
            {f.type === 'webhook' && f.secret ? (
              <>
                signed with its own secret <CopyButton value={f.secret} label={`Copy secret of forward ${i + 1}`} secret />
              </>
            ) : (
              <span className={f.confirmation === 'pending' ? 'bad' : 'muted'}>{CONFIRMATION[f.confirmation ?? ''] ?? ''}</span>
            )}
          </li>
        ))}
      </ol>
      {filtered ? (
        <p className="muted small">
          This route also filters what it takes ({route.catch_filter.type}, {route.match_filter.type}), set through the API; saving here keeps
          those filters.
        </p>
      ) : null}
    </section>
  );
}

const valuesOf = (route: RouteRecord): RouteValues => ({
  name: route.name,
  forwards: route.forwards.map((f) => ({ type: kindOf(f.type), value: f.value })),
  enabled: route.enabled,
  domain_enabled: route.domain_enabled,
  inbound_domain: route.inbound_domain ?? '',
});

function EditRoute({ route }: { route: RouteRecord }) {
  const [updated, update] = useMutation(Update);
  const [saved, setSaved] = useState(false);
  const initial = valuesOf(route);
  async function submit(v: RouteValues) {
    setSaved(false);
    // Forwards go only when changed: each save of them mails the addresses still unconfirmed again.
    const forwards = cleanForwards(v.forwards);
    const changed = JSON.stringify(forwards) !== JSON.stringify(cleanForwards(initial.forwards));
    const res = await update({
      id: route.id,
      name: v.name.trim(),
      enabled: v.enabled,
      domainEnabled: v.domain_enabled,
      ...(changed ? { forwards } : {}),
      // Turned off, the inbound domain is kept as stored: its field is hidden, so it is not sent.
      ...(v.domain_enabled ? { inboundDomain: v.inbound_domain.trim() || null } : {}),
    });
    setSaved(!res.error);
  }
  return (
    <section aria-labelledby="edit-route">
      <h2 id="edit-route">Edit</h2>
      {saved ? <Notice>Saved.</Notice> : null}
      <InboundForm
        key={JSON.stringify(initial)}
        initial={initial}
        label="Edit inbound route"
        domainName={route.domain.name}
        submitLabel="Save"
        busy={updated.fetching}
        error={updated.error}
        onSubmit={submit}
      />
    </section>
  );
}

function DeleteRoute({ id, name }: { id: string; name: string }) {
  const [deleted, del] = useMutation(Delete);
  async function remove() {
    if (!window.confirm(`Delete the inbound route ${name}? Mail to its address is no longer routed.`)) return;
    const res = await del({ id });
    if (!res.error) go('inbound');
  }
  return (
    <section aria-labelledby="delete-route">
      <h2 id="delete-route">Delete</h2>
      <p className="muted small">Mail to its address and inbound domain is no longer routed; its webhook retries are dropped.</p>
      <ErrorNote error={deleted.error} />
      <button type="button" className="danger" disabled={deleted.fetching} onClick={() => void remove()}>
        Delete route
      </button>
    </section>
  );
}
