import { useState, type ReactNode } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { allowed } from '../session';
import { ErrorNote, PageTitle, Pager, When } from '../ui';

const Captured = graphql(`
  query ConsoleInbox($page: Int!) {
    captured_emails(limit: 25, page: $page) {
      data { id email_id from to subject created_at }
      meta { total }
    }
  }
`);

const SystemMails = graphql(`
  query ConsoleSandboxMails($page: Int!) {
    sandbox_mails(limit: 25, page: $page) {
      data { id kind from to subject created_at }
      meta { total }
    }
  }
`);

const SystemMail = graphql(`
  query ConsoleSandboxMail($id: ID!) {
    sandbox_mail(mail_id: $id) { id kind from to subject created_at text html }
  }
`);

/** Permissions under which some of the service's own mail shows (the server decides which kinds). */
export const SYSTEM_MAIL_READERS = ['manage-account', 'manage-sender-identities', 'manage-inbound', 'manage-webhook', 'manage-blocklist'];

const KIND_LABELS: Record<string, string> = {
  invite: 'Invitation',
  identity_confirmation: 'Sender identity to confirm',
  inbound_forward_confirmation: 'Forward to confirm',
  webhook_failing: 'Webhook failing',
  blocklist_listed: 'Blocklist listing',
};

/**
 * The sandbox's inbox: what the capture transport kept instead of sending, newest first. Your
 * domains' emails open as their email in the log, rendered there as every email is (untracked, in
 * a sandboxed frame); the service's own mail (invitations, addresses to confirm, notices) opens
 * here, its links ready to follow, since no one would receive it otherwise.
 */
export function InboxPage({ rest }: { rest: string[] }) {
  if (rest[0]) return <SystemMailDetail id={rest[0]} />;
  return (
    <>
      <PageTitle>Sandbox inbox</PageTitle>
      <p className="muted">Mail kept while mail is captured: nothing here left this machine.</p>
      {allowed(['read-activity']) ? <DomainMail /> : null}
      {allowed(SYSTEM_MAIL_READERS) ? <ServiceMail /> : null}
    </>
  );
}

function DomainMail() {
  const [page, setPage] = useState(1);
  const [{ data, error }] = useQuery({ query: Captured, variables: { page }, requestPolicy: 'cache-and-network' });
  const rows = data?.captured_emails.data ?? [];
  const total = data?.captured_emails.meta.total ?? 0;
  return (
    <>
      <h2>Your domains&apos; emails</h2>
      <ErrorNote error={error} />
      {data && !rows.length ? <p>Nothing captured yet. Send a test email from a domain&apos;s page and it arrives here.</p> : null}
      {rows.length ? (
        <MailTable label="Captured emails" rows={rows.map((r) => ({ ...r, open: <a href={`#/emails/${r.email_id}`}>{r.subject || '(no subject)'}</a> }))} />
      ) : null}
      <Pager page={page} setPage={setPage} more={page * 25 < total} />
    </>
  );
}

function ServiceMail() {
  const [page, setPage] = useState(1);
  const [{ data, error }] = useQuery({ query: SystemMails, variables: { page }, requestPolicy: 'cache-and-network' });
  const rows = data?.sandbox_mails.data ?? [];
  const total = data?.sandbox_mails.meta.total ?? 0;
  return (
    <>
      <h2>Mail from Postbox</h2>
      <ErrorNote error={error} />
      {data && !rows.length ? <p>None yet. Invitations, sender identity and forward confirmations, and notices arrive here.</p> : null}
      {rows.length ? (
        <MailTable
          label="Mail from Postbox"
          rows={rows.map((r) => ({
            ...r,
            open: (
              <>
                <a href={`#/inbox/${r.id}`}>{r.subject}</a> <span className="muted small">({KIND_LABELS[r.kind] ?? r.kind})</span>
              </>
            ),
          }))}
        />
      ) : null}
      <Pager page={page} setPage={setPage} more={page * 25 < total} />
    </>
  );
}

function MailTable({ label, rows }: { label: string; rows: { id: string; created_at: string; to: string; from: string; open: ReactNode }[] }) {
  return (
    <table aria-label={label}>
      <thead>
        <tr>
          <th>Received</th>
          <th>To</th>
          <th>Subject</th>
          <th>From</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.id}>
            <td>
              <When at={r.created_at} />
            </td>
            <td className="wrap">{r.to}</td>
            <td>{r.open}</td>
            <td className="wrap">{r.from}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A text with its web addresses as links, each opening in a new tab. */
function Linked({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s<>"]+)/g);
  return <pre className="text">{parts.map((p, i) => (i % 2 ? <a key={i} href={p} target="_blank" rel="noreferrer">{p}</a> : p))}</pre>;
}

function SystemMailDetail({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: SystemMail, variables: { id } });
  const mail = data?.sandbox_mail;
  return (
    <>
      <PageTitle>{mail?.subject ?? 'Mail'}</PageTitle>
      <p>
        <a href="#/inbox">Sandbox inbox</a>
      </p>
      <ErrorNote error={error} />
      {mail ? (
        <>
          <p>
            {KIND_LABELS[mail.kind] ?? mail.kind} · to {mail.to} · from {mail.from} · <When at={mail.created_at} />
          </p>
          <Linked text={mail.text} />
          {mail.html ? (
            <details>
              <summary>As HTML</summary>
              {/* sandbox="" : no scripts, no forms, no navigation, its own opaque origin. */}
              <iframe className="preview" title="Mail content" sandbox="" srcDoc={mail.html} />
            </details>
          ) : null}
        </>
      ) : null}
    </>
  );
}
