import { useState } from 'react';
import { useMutation, useQuery, type CombinedError } from 'urql';
import { graphql } from '../gql';
import { CopyButton, ErrorNote, Notice, PageTitle, go, useDomainChoice, TableHead, Empty } from '../ui';
import { WebhookForm } from './webhook-form';
import { WebhookLog } from './webhook-log';

const Webhooks = graphql(`
  query ConsoleWebhooks($domain: ID!) {
    webhooks(domain_id: $domain, limit: 100, page: 1) {
      data { id name url enabled events }
    }
  }
`);

const Webhook = graphql(`
  query ConsoleWebhook($id: ID!) {
    webhook(webhook_id: $id) { id name url enabled events secret domain { id name } }
  }
`);

const Create = graphql(`
  mutation ConsoleCreateWebhook($domain: ID!, $name: String!, $url: String!, $events: [String!]!, $enabled: Boolean) {
    create_webhook(domain_id: $domain, name: $name, url: $url, events: $events, enabled: $enabled) { id }
  }
`);

const Update = graphql(`
  mutation ConsoleUpdateWebhook($id: ID!, $name: String, $url: String, $events: [String!], $enabled: Boolean) {
    update_webhook(webhook_id: $id, name: $name, url: $url, events: $events, enabled: $enabled) { id name url enabled events }
  }
`);

export function WebhooksPage({ rest }: { rest: string[] }) {
  if (rest[0] === 'new') return <NewWebhook />;
  return rest[0] ? <WebhookDetail id={rest[0]} /> : <WebhookList />;
}

function WebhookList() {
  const { domainId, picker } = useDomainChoice();
  const [{ data, error }] = useQuery({ query: Webhooks, variables: { domain: domainId ?? '' }, pause: !domainId });
  return (
    <>
      <PageTitle
        actions={
          <>
            {picker}
            <a className="button primary" href="#/webhooks/new">
              New webhook
            </a>
          </>
        }
      >
        Webhooks
      </PageTitle>
      <ErrorNote error={error} />
      <Empty when={!!data && !data.webhooks.data.length}>No webhook on this domain. A webhook posts signed events (delivered, opened, bounced…) to your URL: use New webhook.</Empty>
      <table>
        <TableHead columns={['Name', 'URL', 'Enabled', 'Events']} />
        <tbody>
          {data?.webhooks.data.map((w) => (
            <tr key={w.id}>
              <td>
                <a href={`#/webhooks/${w.id}`}>{w.name}</a>
              </td>
              <td className="wrap">{w.url}</td>
              <td>{w.enabled ? 'yes' : 'no'}</td>
              <td>{w.events.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/**
 * A create or save the server refused because the URL failed its test request: not a form
 * mistake, so it says what was tried and what to do, not a field error.
 */
function SaveError({ error }: { error?: CombinedError }) {
  const url = (error?.graphQLErrors[0]?.extensions?.errors as Record<string, string[]> | undefined)?.url?.[0];
  if (!url || !/test request/.test(url)) return <ErrorNote error={error} />;
  return (
    <div className="error" role="alert">
      <strong>The test request failed, so nothing was saved.</strong> {url} Every save first POSTs a signed{' '}
      <code>webhook.test</code> event to the URL; once your receiver answers it with a 2xx, save again.
    </div>
  );
}

function NewWebhook() {
  const { domainId, picker } = useDomainChoice();
  const [created, create] = useMutation(Create);
  const [missing, setMissing] = useState(false);
  return (
    <>
      <PageTitle actions={picker}>New webhook</PageTitle>
      {missing && !domainId ? (
        <p className="error" role="alert">
          A webhook belongs to a domain, and there is none yet. <a href="#/domains">Add a domain first.</a>
        </p>
      ) : null}
      <SaveError error={created.error} />
      <WebhookForm
        submitLabel="Create webhook"
        busy={created.fetching}
        onSubmit={async (v) => {
          setMissing(!domainId);
          if (!domainId) return;
          const res = await create({ domain: domainId, ...v });
          if (res.data) go(`webhooks/${res.data.create_webhook.id}`);
        }}
      />
    </>
  );
}

const Rotate = graphql(`
  mutation ConsoleRotateWebhookSecret($id: ID!) {
    rotate_webhook_secret(webhook_id: $id) { id secret }
  }
`);

/** The signing secret: hidden until asked for, copied without showing, and replaced on demand. */
function SigningSecret({ id, secret }: { id: string; secret: string }) {
  const [shown, setShown] = useState(false);
  const [rotated, rotate] = useMutation(Rotate);
  async function replace() {
    if (!window.confirm('Replace the signing secret? Requests are signed with the new one from now on: your receiver must use it.')) return;
    const res = await rotate({ id });
    if (!res.error) setShown(true);
  }
  return (
    <div className="row">
      <span>
        Signing secret: {shown ? <code>{secret}</code> : <span className="muted">hidden</span>}
      </span>
      <button type="button" className="small" onClick={() => setShown(!shown)}>
        {shown ? 'Hide secret' : 'Show secret'}
      </button>
      <CopyButton value={secret} label="Copy secret" secret />
      <button type="button" className="small" disabled={rotated.fetching} onClick={() => void replace()}>
        Rotate secret
      </button>
      <ErrorNote error={rotated.error} />
      {rotated.data ? <Notice>New secret in force: requests are signed with it from now on.</Notice> : null}
    </div>
  );
}

function WebhookDetail({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: Webhook, variables: { id } });
  const [updated, update] = useMutation(Update);
  const [saved, setSaved] = useState('');
  const hook = data?.webhook;
  if (!hook) return <ErrorNote error={error} />;
  return (
    <>
      <PageTitle
        actions={
          // Every update sends the signed webhook.test request; with nothing changed, that is the test.
          <button type="button" onClick={() => void update({ id }).then((r) => setSaved(r.error ? '' : 'Test request sent: see the log.'))}>
            Send test request
          </button>
        }
      >
        Webhook: {hook.name}
      </PageTitle>
      <p className="muted">Domain {hook.domain.name}.</p>
      <SigningSecret id={hook.id} secret={hook.secret} />
      <SaveError error={updated.error} />
      {saved ? <p role="status">{saved}</p> : null}
      <WebhookForm
        key={`${hook.url}|${hook.enabled}|${hook.events.join()}`}
        initial={hook}
        submitLabel="Save"
        busy={updated.fetching}
        onSubmit={async (v) => {
          const res = await update({ id, ...v });
          setSaved(res.error ? '' : 'Saved.');
        }}
      />
      <WebhookLog id={id} />
    </>
  );
}
