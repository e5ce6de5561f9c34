import { useState } from 'react';
import { useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';
import type { ConsoleActivityQuery } from '../gql/graphql';
import { ErrorNote, PageTitle, Pager, useDomainChoice, TableHead, When, Empty } from '../ui';

export const EVENTS = ['queued', 'sent', 'delivered', 'soft_bounced', 'hard_bounced', 'deferred', 'opened', 'opened_unique', 'clicked', 'clicked_unique', 'unsubscribed', 'spam_complaints', 'survey_opened', 'survey_submitted', 'suppressed'];

const Activity = graphql(`
  query ConsoleActivity($domain: ID!, $from: String!, $to: String!, $event: [String!], $page: Int!) {
    activities(domain_id: $domain, date_from: $from, date_to: $to, event: $event, limit: 25, page: $page) {
      data {
        id
        type
        created_at
        email {
          id
          subject
          recipient { email }
        }
      }
    }
  }
`);

const Live = graphql(`
  subscription ConsoleLiveActivity($domain: ID!) {
    activity(domain_id: $domain) {
      id
      type
      created_at
      email {
        id
        subject
        recipient { email }
      }
    }
  }
`);

type Entry = ConsoleActivityQuery['activities']['data'][number];

const day = (d: Date) => d.toISOString().slice(0, 10);

export function ActivityPage() {
  const { domainId, picker } = useDomainChoice();
  const [event, setEvent] = useState('');
  const [from, setFrom] = useState(day(new Date(Date.now() - 6 * 86400_000)));
  const [to, setTo] = useState(day(new Date()));
  const [page, setPage] = useState(1);
  const [{ data, error }] = useQuery({
    query: Activity,
    variables: { domain: domainId ?? '', from: `${from} 00:00:00`, to: `${to} 23:59:59`, event: event ? [event] : null, page },
    pause: !domainId,
  });
  // New entries arrive over SSE; the newest come first, filtered like the list.
  const [live] = useSubscription({ query: Live, variables: { domain: domainId ?? '' }, pause: !domainId || page !== 1 }, (prev: Entry[] = [], next) =>
    [...[...next.activity].reverse(), ...prev].slice(0, 200),
  );
  const fetched = data?.activities.data ?? [];
  const seen = new Set(fetched.map((e) => e.id));
  const fresh = (live.data ?? []).filter((e) => !seen.has(e.id) && (!event || e.type === event));
  const rows = [...fresh, ...fetched];
  return (
    <>
      <PageTitle actions={picker}>Activity</PageTitle>
      <form className="row" aria-label="Filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Event
          <select value={event} onChange={(e) => (setEvent(e.target.value), setPage(1))}>
            <option value="">All events</option>
            {EVENTS.map((e) => (
              <option key={e}>{e}</option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" value={from} onChange={(e) => (setFrom(e.target.value), setPage(1))} />
        </label>
        <label>
          To
          <input type="date" value={to} onChange={(e) => (setTo(e.target.value), setPage(1))} />
        </label>
      </form>
      <p className="muted" aria-live="polite">
        {live.error ? 'Live updates stopped.' : page === 1 && domainId ? 'Live: new events appear at the top.' : ''}
      </p>
      <ErrorNote error={error} />
      <Empty when={!!data && !rows.length}>Nothing happened in this range yet. Send an email from a domain&apos;s page and its events arrive here live.</Empty>
      <table aria-label="Activity">
        <TableHead columns={['When', 'Event', 'Recipient', 'Subject']} />
        <tbody>
          {rows.map((e) => (
            <tr key={e.id} data-event={e.type}>
              <td>
                <When at={e.created_at} />
              </td>
              <td>
                <span className={`badge ev-${e.type}`}>{e.type}</span>
              </td>
              <td>{e.email.recipient.email}</td>
              <td>
                <a href={`#/emails/${e.email.id}`}>{e.email.subject}</a>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager page={page} setPage={setPage} more={fetched.length === 25} />
    </>
  );
}
