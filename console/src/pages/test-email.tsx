import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../gql';
import type { ConsoleSendTestMutation } from '../gql/graphql';
import { ErrorNote, Notice } from '../ui';

const Send = graphql(`
  mutation ConsoleSendTest($from: EmailAddressInput!, $to: [EmailAddressInput!]!, $subject: String!, $text: String!) {
    send_email(from: $from, to: $to, subject: $subject, text: $text) {
      message_id
      message
      send_paused
      warnings { type warning recipients { email reasons } }
    }
  }
`);

type Result = NonNullable<ConsoleSendTestMutation['send_email']>;

/** What became of the send: nothing goes out to a suppressed address, and a paused domain holds it. */
function Outcome({ result }: { result: Result }) {
  const suppressed = result.warnings.flatMap((w) => w.recipients);
  if (result.warnings.some((w) => w.type === 'ALL_SUPPRESSED')) {
    return (
      <p className="error" role="alert">
        Not sent: {suppressed.map((r) => `${r.email} is on a suppression list (${r.reasons.join(', ')})`).join('; ')}.{' '}
        <a href="#/suppressions">See the suppressions</a>.
      </p>
    );
  }
  return (
    <Notice>
      Accepted as message {result.message_id}
      {result.send_paused ? ', held while the domain has sending paused' : ''}. <a href="#/activity">Watch it in Activity</a>.
    </Notice>
  );
}

/** Sends one plain email from the domain, to see it go through (the activity page shows it live). */
export function TestEmail({ domainName }: { domainName: string }) {
  const [sent, send] = useMutation(Send);
  const [from, setFrom] = useState(`test@${domainName}`);
  const [to, setTo] = useState('');
  async function submit(e: FormEvent) {
    e.preventDefault();
    await send({ from: { email: from }, to: [{ email: to }], subject: 'Test email from the Postbox console', text: 'This is a test email sent from the Postbox console.' });
  }
  return (
    <section aria-labelledby="test-email">
      <h2 id="test-email">Send a test email</h2>
      <form className="row" onSubmit={submit}>
        <label>
          From
          <input type="email" required value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          To
          <input type="email" required value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        <button type="submit" disabled={sent.fetching}>
          Send test email
        </button>
      </form>
      <ErrorNote error={sent.error} />
      {sent.data ? <Outcome result={sent.data.send_email} /> : null}
    </section>
  );
}
