import { useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote, Notice } from '../ui';

const Settings = graphql(`
  query ConsoleDomainSettings($id: ID!) {
    domain(domain_id: $id) {
      id
      domain_settings {
        send_paused
        track_opens
        track_clicks
        track_unsubscribe
        track_content
        precedence_bulk
        ignore_duplicated_recipients
      }
    }
  }
`);

const Update = graphql(`
  mutation ConsoleUpdateDomainSettings(
    $id: ID!
    $send_paused: Boolean
    $track_opens: Boolean
    $track_clicks: Boolean
    $track_unsubscribe: Boolean
    $track_content: Boolean
    $precedence_bulk: Boolean
    $ignore_duplicated_recipients: Boolean
  ) {
    update_domain_settings(
      domain_id: $id
      send_paused: $send_paused
      track_opens: $track_opens
      track_clicks: $track_clicks
      track_unsubscribe: $track_unsubscribe
      track_content: $track_content
      precedence_bulk: $precedence_bulk
      ignore_duplicated_recipients: $ignore_duplicated_recipients
    ) {
      id
      domain_settings {
        send_paused
        track_opens
        track_clicks
        track_unsubscribe
        track_content
        precedence_bulk
        ignore_duplicated_recipients
      }
    }
  }
`);

const LABELS = {
  send_paused: 'Sending paused',
  track_opens: 'Track opens',
  track_clicks: 'Track clicks',
  track_unsubscribe: 'Unsubscribe link',
  track_content: 'Keep content',
  precedence_bulk: 'Precedence: bulk',
  ignore_duplicated_recipients: 'Ignore duplicated recipients',
} as const;

/** Each switch saves on change, and says so. */
export function DomainSettings({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: Settings, variables: { id } });
  const [updated, update] = useMutation(Update);
  const [saved, setSaved] = useState<string | null>(null);
  const settings = data?.domain.domain_settings;
  async function change(key: keyof typeof LABELS, on: boolean) {
    setSaved(null);
    const res = await update({ id, [key]: on });
    if (!res.error) setSaved(`Saved: ${LABELS[key]} is ${on ? 'on' : 'off'}.`);
  }
  return (
    <section aria-labelledby="domain-settings">
      <h2 id="domain-settings">Settings</h2>
      <ErrorNote error={error ?? updated.error} />
      {saved ? <Notice>{saved}</Notice> : null}
      {settings ? (
        <div className="checks">
          {(Object.keys(LABELS) as (keyof typeof LABELS)[]).map((key) => (
            <label key={key}>
              <input type="checkbox" checked={settings[key]} onChange={(e) => void change(key, e.target.checked)} /> {LABELS[key]}
            </label>
          ))}
        </div>
      ) : null}
    </section>
  );
}
