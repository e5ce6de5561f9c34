import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../gql';
import { ErrorNote, Notice } from '../ui';

const Send = graphql(`
  mutation ConsoleSendTest($from: EmailAddressInput!, $to: [EmailAddressInput!]!, $subject: String!, $text: String!) {
    send_email(from: $from, to: $to, subject: $subject, text: $text) {
      message_id
      message
    }
  }
`);

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
      {sent.data ? (
        <Notice>
          Accepted as message {sent.data.send_email.message_id}. <a href="#/activity">Watch it in Activity</a>.
        </Notice>
      ) : null}
    </section>
  );
}
