import { useEffect, useState } from 'react';
import { useMutation, useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';
import { ErrorNote, Notice, Pager, TableHead, When } from '../ui';

const Log = graphql(`
  query ConsoleWebhookLog($id: ID!, $page: Int!) {
    webhook_log(webhook_id: $id, limit: 25, page: $page) {
      data { id type attempted_at status success duration_ms error response_excerpt delivery_id }
      meta { last_page }
    }
  }
`);

const Live = graphql(`
  subscription ConsoleWebhookLive($id: ID!) {
    webhook_deliveries(webhook_id: $id) { id }
  }
`);

const Replay = graphql(`
  mutation ConsoleReplayWebhook($id: ID!, $since: String!) {
    replay_webhook(webhook_id: $id, since: $since) { replayed }
  }
`);

const Delivery = graphql(`
  query ConsoleWebhookDelivery($id: ID!) {
    webhook_delivery(delivery_id: $id) { id type state attempts last_status body }
  }
`);

const Retry = graphql(`
  mutation ConsoleRetryWebhookDelivery($id: ID!) {
    retry_webhook_delivery(delivery_id: $id) { id state attempts }
  }
`);

/** The body as JSON laid out to read; as sent when it is not JSON. */
function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** One delivery: its state, the body its requests carry, and a retry when it failed or gave up. */
function DeliveryDetail({ id, onRetried }: { id: string; onRetried: () => void }) {
  const [{ data, error }, refetch] = useQuery({ query: Delivery, variables: { id }, requestPolicy: 'network-only' });
  const [retried, retry] = useMutation(Retry);
  const d = data?.webhook_delivery;
  if (!d) return <ErrorNote error={error} />;
  const retriable = d.state === 'failed' || d.state === 'gave_up';
  return (
    <div className="stack">
      <p className="small">
        Delivery <code>{d.id}</code>: {d.state.replace('_', ' ')} after {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
        {d.last_status ? `, last answer ${d.last_status}` : ''}.{' '}
        {retriable ? (
          <button type="button" className="small" disabled={retried.fetching} onClick={() => void retry({ id }).then(() => (refetch(), onRetried()))}>
            Retry now
          </button>
        ) : null}
      </p>
      <ErrorNote error={retried.error} />
      {retried.data ? <Notice>Queued again: it goes out on the next tick.</Notice> : null}
      <pre className="payload" aria-label="Payload">
        {pretty(d.body)}
      </pre>
    </div>
  );
}

/** Each request the webhook made: status, time, error and the start of the answer; failed ones can be replayed. */
export function WebhookLog({ id }: { id: string }) {
  const [page, setPage] = useState(1);
  const [{ data, error }, refetch] = useQuery({ query: Log, variables: { id, page } });
  // A new attempt anywhere refreshes the list.
  const [live] = useSubscription({ query: Live, variables: { id } }, (seen: number = 0) => seen + 1);
  useEffect(() => {
    if (live.data) refetch({ requestPolicy: 'network-only' });
  }, [live.data, refetch]);
  const [replayed, replay] = useMutation(Replay);
  const [hours, setHours] = useState('24');
  const rows = data?.webhook_log.data ?? [];
  const [open, setOpen] = useState<string | null>(null);
  const again = () => refetch({ requestPolicy: 'network-only' });
  return (
    <section aria-labelledby="webhook-log">
      <h2 id="webhook-log">Delivery log</h2>
      <form
        className="row"
        aria-label="Replay"
        onSubmit={(e) => {
          e.preventDefault();
          const since = new Date(Date.now() - Number(hours) * 3600_000).toISOString();
          void replay({ id, since }).then(() => refetch({ requestPolicy: 'network-only' }));
        }}
      >
        <label>
          Failed deliveries of the last
          <select value={hours} onChange={(e) => setHours(e.target.value)}>
            <option value="1">hour</option>
            <option value="24">24 hours</option>
            <option value="168">7 days</option>
          </select>
        </label>
        <button type="submit">Replay failed deliveries</button>
      </form>
      <ErrorNote error={error ?? replayed.error} />
      {replayed.data ? (
        <Notice>
          {replayed.data.replay_webhook.replayed
            ? `${replayed.data.replay_webhook.replayed} deliveries queued again.`
            : 'Nothing to replay: no delivery of that window failed or gave up. One still being retried goes out on its schedule (open it below to retry it now once it has failed).'}
        </Notice>
      ) : null}
      <table aria-label="Delivery log">
        <TableHead columns={['When', 'Event', 'Result', 'Response']} />
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} className={r.success ? 'ok' : 'failed'}>
              <td>
                <When at={r.attempted_at} />
              </td>
              <td>
                {r.type}
                {r.delivery_id ? (
                  <div>
                    <button type="button" className="small" aria-expanded={open === r.id} onClick={() => setOpen(open === r.id ? null : r.id)}>
                      {open === r.id ? 'Hide payload' : 'Payload'}
                    </button>
                  </div>
                ) : null}
                {r.delivery_id && open === r.id ? <DeliveryDetail id={r.delivery_id} onRetried={again} /> : null}
              </td>
              <td>
                <span className={`badge ${r.success ? 'ev-delivered' : 'ev-hard_bounced'}`}>{r.success ? 'success' : 'failed'}</span> {r.status ?? 'no answer'} · {r.duration_ms} ms
                {r.error ? <div className="muted small">{r.error}</div> : null}
              </td>
              <td>
                <code className="wrap">{r.response_excerpt ?? ''}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <Pager page={page} setPage={setPage} more={page < (data?.webhook_log.meta.last_page ?? 1)} />
    </section>
  );
}
