import { useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { allowed } from '../session';
import { ErrorNote, PageTitle, useDomainChoice, RangeSelect } from '../ui';

const OverviewQuery = graphql(`
  query ConsoleOverview {
    overview {
      sandbox
      waiting { count more }
      webhooks_failing
      setup { key done }
    }
  }
`);

const Counts = graphql(`
  query ConsoleOverviewCounts($domain: ID, $from: Int!, $to: Int!, $events: [String!]!) {
    analytics_date(domain_id: $domain, date_from: $from, date_to: $to, event: $events, group_by: "days") { stats }
  }
`);

/** Each step of the checklist: what it asks, and the page where it is done. */
const STEPS: Record<string, { label: string; href: string }> = {
  domain: { label: 'Add a sending domain', href: '#/domains' },
  verified: { label: 'Publish its DNS records and verify it', href: '#/domains' },
  token: { label: 'Create an API token for your application', href: '#/tokens' },
  email: { label: 'Send a first email (a test email from the domain page will do)', href: '#/domains' },
  webhook: { label: 'Add a webhook to hear about deliveries, bounces and opens', href: '#/webhooks' },
};

/** The figures shown, each with the event whose count it is a rate of (none for sent). */
const FIGURES = [
  { key: 'sent', label: 'Sent', of: null },
  { key: 'delivered', label: 'Delivered', of: 'sent' },
  { key: 'opened_unique', label: 'Opened', of: 'delivered' },
  { key: 'clicked_unique', label: 'Clicked', of: 'delivered' },
  { key: 'bounced', label: 'Bounced', of: 'sent' },
  { key: 'spam_complaints', label: 'Complained', of: 'delivered' },
] as const;
const EVENTS = ['sent', 'delivered', 'opened_unique', 'clicked_unique', 'hard_bounced', 'soft_bounced', 'spam_complaints'];
const DAY = 86400;

type Totals = Record<string, number>;

/** Sums per event of the days in [from, to), bounces together. */
function totals(stats: Record<string, number>[], from: number, to: number): Totals {
  const out: Totals = {};
  for (const day of stats) {
    if (day.date < from || day.date >= to) continue;
    for (const e of EVENTS) out[e] = (out[e] ?? 0) + (day[e] ?? 0);
  }
  out.bounced = (out.hard_bounced ?? 0) + (out.soft_bounced ?? 0);
  return out;
}

const percent = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)}%` : '–');

/** The change from the previous period, in words a screen reader reads whole. */
function trend(now: number, before: number, days: number): string {
  if (!before) return now ? `new in these ${days} days` : `none in the previous ${days} days either`;
  const change = Math.round((100 * (now - before)) / before);
  if (change === 0) return `same as the previous ${days} days`;
  return `${change > 0 ? '▲' : '▼'} ${Math.abs(change)}% vs the previous ${days} days`;
}

function Stats() {
  const { domainId, picker } = useDomainChoice();
  const [days, setDays] = useState(7);
  // Whole days, fixed per choice; two periods in one query, the previous one for the trend.
  const range = useMemo(() => {
    const to = Math.floor(Date.now() / 1000);
    return { from: to - 2 * days * DAY, to, split: to - days * DAY };
  }, [days]);
  const [{ data, error }] = useQuery({
    query: Counts,
    variables: { domain: domainId, from: range.from, to: range.to, events: EVENTS },
    pause: !domainId,
  });
  const stats = (data?.analytics_date.stats ?? []) as Record<string, number>[];
  const now = totals(stats, range.split - DAY, range.to + DAY);
  const before = totals(stats, range.from - DAY, range.split - DAY);
  return (
    <section aria-labelledby="sending">
      <div className="page-head">
        <h2 id="sending">Sending</h2>
        <div className="actions">
          {picker}
          <RangeSelect days={days} setDays={setDays} choices={[7, 30]} />
        </div>
      </div>
      <ErrorNote error={error} />
      {domainId ? (
        <ul className="figures">
          {FIGURES.map((f) => (
            <li key={f.key} className="card">
              <span className="muted small">{f.label}</span>
              <strong>{(now[f.key] ?? 0).toLocaleString()}</strong>
              {f.of ? <span className="small">{percent(now[f.key] ?? 0, now[f.of] ?? 0)} of {f.of}</span> : null}
              <span className="small muted">{trend(now[f.key] ?? 0, before[f.key] ?? 0, days)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No domain yet: add one to see its sending here.</p>
      )}
    </section>
  );
}

const Sandbox = graphql(`
  query ConsoleSandbox {
    overview { sandbox }
  }
`);

/** Whether mail is captured (the sandbox): the menu shows the sandbox inbox then. Asks for that field alone, which reads nothing. */
export function useSandbox(): boolean {
  const [{ data }] = useQuery({ query: Sandbox });
  return data?.overview.sandbox ?? false;
}

export function OverviewPage() {
  const [{ data, error }] = useQuery({ query: OverviewQuery, requestPolicy: 'cache-and-network' });
  const o = data?.overview;
  const steps = (o?.setup ?? []).filter((s) => s.done !== null);
  const left = steps.filter((s) => !s.done).length;
  return (
    <>
      <PageTitle>Overview</PageTitle>
      <ErrorNote error={error} />
      {o?.sandbox ? (
        <p className="banner" role="note">
          <strong>Sandbox.</strong> Mail is kept on this machine and never reaches anyone&apos;s inbox.{' '}
          {allowed(['read-activity']) ? <a href="#/inbox">Read it in the sandbox inbox.</a> : null}
        </p>
      ) : null}
      {steps.length && left ? (
        <section aria-labelledby="setup">
          <h2 id="setup">Get started: {steps.length - left} of {steps.length} done</h2>
          <ol className="checklist">
            {steps.map((s) => (
              <li key={s.key} className={s.done ? 'done' : undefined}>
                <span aria-hidden="true">{s.done ? '✓' : '○'}</span>{' '}
                {s.done ? <span>{STEPS[s.key]?.label ?? s.key}</span> : <a href={STEPS[s.key]?.href ?? '#/'}>{STEPS[s.key]?.label ?? s.key}</a>}
                <span className="sr-only">{s.done ? ' (done)' : ' (to do)'}</span>
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {o && (o.waiting || o.webhooks_failing !== null) ? (
        <ul className="figures">
          {o.waiting ? (
            <li className="card">
              <span className="muted small">Waiting to go</span>
              <strong>
                {o.waiting.count.toLocaleString()}
                {o.waiting.more ? '+' : ''}
              </strong>
              <a className="small" href="#/emails">
                See the email log
              </a>
            </li>
          ) : null}
          {o.webhooks_failing !== null ? (
            <li className={o.webhooks_failing ? 'card alarm' : 'card'}>
              <span className="muted small">Webhooks failing (24 h)</span>
              <strong>{o.webhooks_failing}</strong>
              <a className="small" href="#/webhooks">
                See the webhooks
              </a>
            </li>
          ) : null}
        </ul>
      ) : null}
      {allowed(['read-analytics']) ? <Stats /> : null}
    </>
  );
}
