import { useState, type FormEvent } from 'react';

export const WEBHOOK_EVENTS = [
  'activity.sent', 'activity.delivered', 'activity.soft_bounced', 'activity.hard_bounced', 'activity.deferred',
  'activity.opened', 'activity.opened_unique', 'activity.clicked', 'activity.clicked_unique', 'activity.unsubscribed',
  'activity.spam_complaint', 'activity.survey_opened', 'activity.survey_submitted', 'sender_identity.verified',
  'maintenance.start', 'maintenance.end', 'inbound_forward.failed', 'inbound_message.rejected', 'email_single.verified',
  'email_list.verified', 'bulk_email.completed', 'recipient.on_hold_added', 'recipient.on_hold_removed',
];

export interface WebhookValues {
  name: string;
  url: string;
  events: string[];
  enabled: boolean;
}

export function WebhookForm(props: {
  initial?: WebhookValues;
  submitLabel: string;
  busy: boolean;
  onSubmit: (v: WebhookValues) => Promise<void>;
}) {
  const [v, setV] = useState<WebhookValues>(props.initial ?? { name: '', url: '', events: ['activity.delivered'], enabled: true });
  const toggle = (event: string, on: boolean) => setV({ ...v, events: on ? [...v.events, event] : v.events.filter((e) => e !== event) });
  async function submit(e: FormEvent) {
    e.preventDefault();
    await props.onSubmit({ name: v.name, url: v.url, events: v.events, enabled: v.enabled });
  }
  return (
    <form className="stack" onSubmit={submit} aria-label="Webhook">
      <label>
        Name
        <input required value={v.name} onChange={(e) => setV({ ...v, name: e.target.value })} />
      </label>
      <label>
        URL
        <input required type="url" value={v.url} onChange={(e) => setV({ ...v, url: e.target.value })} />
      </label>
      <label className="inline">
        <input type="checkbox" checked={v.enabled} onChange={(e) => setV({ ...v, enabled: e.target.checked })} /> Enabled
      </label>
      <fieldset>
        <legend>Events</legend>
        <div className="checks">
          {WEBHOOK_EVENTS.map((event) => (
            <label key={event}>
              <input type="checkbox" checked={v.events.includes(event)} onChange={(e) => toggle(event, e.target.checked)} /> {event}
            </label>
          ))}
        </div>
      </fieldset>
      <button type="submit" className="primary" disabled={props.busy}>
        {props.submitLabel}
      </button>
    </form>
  );
}
