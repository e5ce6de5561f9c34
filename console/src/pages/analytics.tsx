import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { ChartView } from '../chart';
import { ErrorNote, PageTitle, useDomainChoice, RangeSelect } from '../ui';

const SHOWN = ['sent', 'delivered', 'opened', 'clicked', 'hard_bounced', 'soft_bounced'];

const Analytics = graphql(`
  query ConsoleAnalytics($domain: ID, $from: Int!, $to: Int!, $events: [String!]!) {
    analytics_date(domain_id: $domain, date_from: $from, date_to: $to, event: $events, group_by: "days") { stats }
    analytics_country(domain_id: $domain, date_from: $from, date_to: $to) { stats { name count } }
    analytics_ua_name(domain_id: $domain, date_from: $from, date_to: $to) { stats { name count } }
    analytics_ua_type(domain_id: $domain, date_from: $from, date_to: $to) { stats { name count } }
  }
`);

/** One domain at a time, like the other pages (a user limited to domains must name one). */
export function AnalyticsPage() {
  const { domainId, picker } = useDomainChoice();
  const [days, setDays] = useState(30);
  // Whole seconds, fixed per choice: a moving `to` would refetch on every render.
  const range = useMemo(() => {
    const to = Math.floor(Date.now() / 1000);
    return { from: to - days * 86400, to };
  }, [days]);
  const [{ data, error }] = useQuery({ query: Analytics, variables: { domain: domainId, ...range, events: SHOWN }, pause: !domainId });
  const byDate = useMemo(() => {
    const stats = (data?.analytics_date.stats ?? []) as Record<string, number>[];
    return {
      labels: stats.map((s) => new Date(s.date * 1000).toISOString().slice(0, 10)),
      series: SHOWN.map((e) => ({ label: e, values: stats.map((s) => s[e] ?? 0) })),
    };
  }, [data]);
  const names = (rows: { name: string; count: number }[] | undefined, label: string) => ({
    labels: (rows ?? []).map((r) => r.name),
    series: [{ label, values: (rows ?? []).map((r) => r.count) }],
  });
  const country = useMemo(() => names(data?.analytics_country.stats, 'opens'), [data]);
  const client = useMemo(() => names(data?.analytics_ua_name.stats, 'opens'), [data]);
  const env = useMemo(() => names(data?.analytics_ua_type.stats, 'opens'), [data]);
  return (
    <>
      <PageTitle
        actions={
          <>
            {picker}
          <RangeSelect days={days} setDays={setDays} choices={[7, 30, 90]} />
          </>
        }
      >
        Analytics
      </PageTitle>
      <ErrorNote error={error} />
      <h2>By date</h2>
      <ChartView kind="line" {...byDate} summary={`Events per day over ${days} days`} />
      <div className="grid2">
        <section>
          <h2>Opens by country</h2>
          <ChartView kind="bar" {...country} summary={country.labels.map((l, i) => `${l}: ${country.series[0].values[i]}`).join(', ') || 'No opens'} />
        </section>
        <section>
          <h2>Opens by client</h2>
          <ChartView kind="bar" {...client} summary={client.labels.map((l, i) => `${l}: ${client.series[0].values[i]}`).join(', ') || 'No opens'} />
        </section>
        <section>
          <h2>Opens by reading environment</h2>
          <ChartView kind="bar" {...env} summary={env.labels.map((l, i) => `${l}: ${env.series[0].values[i]}`).join(', ') || 'No opens'} />
        </section>
      </div>
    </>
  );
}
