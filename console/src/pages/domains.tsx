import { useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { CopyButton, ErrorNote, Notice, PageTitle, go, TableHead, When, Empty } from '../ui';
import { DomainSettings } from './domain-settings';
import { TestEmail } from './test-email';

const Domains = graphql(`
  query ConsoleDomains {
    domains(limit: 100, page: 1) {
      data {
        id
        name
        is_verified
        is_dns_active
        created_at
      }
    }
  }
`);

const CreateDomain = graphql(`
  mutation ConsoleCreateDomain($name: String!) {
    create_domain(name: $name) {
      id
      name
    }
  }
`);

const DnsRecords = graphql(`
  query ConsoleDnsRecords($id: ID!) {
    domain(domain_id: $id) {
      id
      name
      is_verified
      is_dns_active
      spf
      dkim
      is_cname_verified
      tracking
      mx
    }
    domain_dns_records(domain_id: $id) {
      id
      spf { hostname type value }
      dkim { hostname type value }
      return_path { hostname type value }
      custom_tracking { hostname type value }
      inbound_routing { hostname type value priority }
    }
  }
`);

const Verify = graphql(`
  mutation ConsoleVerifyDomain($id: ID!) {
    verify_domain(domain_id: $id) {
      message
      data { spf dkim mx rp_cname tracking cname }
    }
  }
`);

export function DomainsPage({ rest }: { rest: string[] }) {
  return rest[0] ? <DomainDetail id={rest[0]} /> : <DomainList />;
}

function DomainList() {
  const [{ data, error, fetching }] = useQuery({ query: Domains });
  const [created, create] = useMutation(CreateDomain);
  const [name, setName] = useState('');
  async function add(e: FormEvent) {
    e.preventDefault();
    const res = await create({ name: name.trim() });
    if (res.data) go(`domains/${res.data.create_domain.id}`);
  }
  return (
    <>
      <PageTitle>Domains</PageTitle>
      <form className="row" onSubmit={add} aria-label="Add a domain">
        <label>
          New domain
          <input required placeholder="mail.example.com" value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={created.fetching}>
          Add domain
        </button>
      </form>
      <ErrorNote error={created.error ?? error} />
      {fetching && !data ? <p>Loading…</p> : null}
      <Empty when={!!data && !data.domains.data.length}>No domain yet. Add the domain you send from above: the next page shows the DNS records to publish.</Empty>
      <table>
        <TableHead columns={['Name', 'Verified', 'Created']} />
        <tbody>
          {data?.domains.data.map((d) => (
            <tr key={d.id}>
              <td>
                <a href={`#/domains/${d.id}`}>{d.name}</a>
              </td>
              <td>{d.is_verified ? 'yes' : 'no'}</td>
              <td>
                <When at={d.created_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function DomainDetail({ id }: { id: string }) {
  const [{ data, error }, refetch] = useQuery({ query: DnsRecords, variables: { id } });
  const [verified, verify] = useMutation(Verify);
  const records = data?.domain_dns_records;
  const check = verified.data?.verify_domain;
  const d = data?.domain;
  // Each record's state: from the check just run, else as last stored; null when never checked.
  const found = (now: boolean | undefined, stored: boolean | null | undefined) => (check ? (now ?? null) : (stored ?? null));
  const rows =
    records && d
      ? [
          { label: 'SPF', required: true, found: found(check?.data.spf, d.spf), ...records.spf },
          { label: 'DKIM', required: true, found: found(check?.data.dkim, d.dkim), ...records.dkim },
          { label: 'Return path', required: false, found: found(check?.data.rp_cname, d.is_cname_verified), ...records.return_path },
          { label: 'Tracking', required: false, found: found(check?.data.tracking, d.tracking), ...records.custom_tracking },
          { label: 'Inbound (MX)', required: false, found: found(check?.data.mx, d.mx), ...records.inbound_routing },
        ]
      : [];
  return (
    <>
      <PageTitle
        actions={
          <button
            type="button"
            className="primary"
            disabled={verified.fetching}
            onClick={() => void verify({ id }).then(() => refetch({ requestPolicy: 'network-only' }))}
          >
            Verify now
          </button>
        }
      >
        {data?.domain.name ?? 'Domain'} <span className="badge">{data?.domain.is_verified ? 'verified' : 'not verified'}</span>
      </PageTitle>
      <ErrorNote error={error ?? verified.error} />
      {check ? <Notice>{check.message} Each record's state is in the table below.</Notice> : null}
      <h2>DNS records</h2>
      <p className="muted small">SPF and DKIM verify the domain; the others are optional.</p>
      <table className="dns">
        <TableHead columns={['Record', 'Status', 'Type', 'Host', 'Value']} />
        <tbody>
          {rows.map((r) => (
            <tr key={r.label}>
              <td>
                {r.label}
                {r.required ? null : <span className="muted small"> (optional)</span>}
              </td>
              <td className={r.found === false && r.required ? 'bad nowrap' : 'nowrap'}>{r.found === null ? 'Not checked' : r.found ? '✓ Found' : '✗ Not found'}</td>
              <td>{r.type}</td>
              <td>
                <code>{r.hostname}</code> <CopyButton value={r.hostname} label="Copy host" />
              </td>
              <td>
                <code className="wrap">{r.value}</code> <CopyButton value={r.value} label="Copy value" />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {data ? <TestEmail domainName={data.domain.name} /> : null}
      <DomainSettings id={id} />
    </>
  );
}
