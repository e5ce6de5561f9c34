import { useMemo, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { ChartView } from '../chart';
import { CopyButton, ErrorNote, useDomainChoice } from '../ui';

const Monitors = graphql(`
  query ConsoleDmarcMonitors {
    dmarc_monitors(limit: 100, page: 1) { id domain { id name } dmarc_valid dmarc_record wanted_dmarc_record report_address spf_status }
  }
`);

const Create = graphql(`mutation ConsoleCreateDmarcMonitor($domain: ID!) { create_dmarc_monitor(domain_id: $domain) { id } }`);

const Sources = graphql(`
  query ConsoleDmarcSources($id: ID!, $from: String!, $to: String!) {
    dmarc_report_sources(monitor_id: $id, date_from: $from, date_to: $to) { report_source reports }
  }
`);

const day = (d: Date) => d.toISOString().slice(0, 10);

/** Reports per source over the last 30 days, as a bar chart. */
function SourceChart({ id }: { id: string }) {
  const range = useMemo(() => ({ from: day(new Date(Date.now() - 30 * 86400_000)), to: day(new Date()) }), []);
  const [{ data, error }] = useQuery({ query: Sources, variables: { id, ...range } });
  const chart = useMemo(() => {
    const rows = data?.dmarc_report_sources ?? [];
    return { labels: rows.map((r) => r.report_source), series: [{ label: 'reports', values: rows.map((r) => r.reports) }] };
  }, [data]);
  if (error) return <ErrorNote error={error} />;
  if (!chart.labels.length) return <p className="muted">No reports in the last 30 days.</p>;
  return <ChartView kind="bar" {...chart} summary={chart.labels.map((l, i) => `${l}: ${chart.series[0].values[i]}`).join(', ')} />;
}

export function DmarcMonitors() {
  const { domainId, picker } = useDomainChoice();
  const [{ data, error }, refetch] = useQuery({ query: Monitors });
  const [created, create] = useMutation(Create);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (domainId) await create({ domain: domainId }).then(() => refetch({ requestPolicy: 'network-only' }));
  }
  return (
    <section aria-labelledby="dmarc">
      <h2 id="dmarc">DMARC monitors</h2>
      <form className="row" onSubmit={submit} aria-label="Add a DMARC monitor">
        {picker}
        <button type="submit" className="primary" disabled={created.fetching || !domainId}>
          Monitor DMARC
        </button>
      </form>
      <ErrorNote error={error ?? created.error} />
      {data?.dmarc_monitors.map((m) => (
        <article key={m.id} className="card">
          <h3>{m.domain.name}</h3>
          <p>
            DMARC record {m.dmarc_valid ? 'valid' : <strong className="bad">missing or invalid</strong>} · SPF {m.spf_status} · reports to <code>{m.report_address}</code>
          </p>
          {m.dmarc_record !== m.wanted_dmarc_record ? (
            <p className="small">
              To get its reports here, publish this TXT record at <code>_dmarc.{m.domain.name}</code>: <code className="wrap">{m.wanted_dmarc_record}</code>{' '}
              <CopyButton value={m.wanted_dmarc_record} label="Copy record" />
            </p>
          ) : null}
          <SourceChart id={m.id} />
        </article>
      ))}
    </section>
  );
}
