import { Suspense, lazy, useEffect, useRef, useState, type ComponentType } from 'react';
import { Provider } from 'urql';
import { makeClient } from './client';
import { LoginPage } from './login';
import { allowed, forget, logout, restore, session } from './session';
import { useRoute } from './ui';
import { DomainsPage } from './pages/domains';
import { ActivityPage } from './pages/activity';
import { EmailsPage } from './pages/emails';
import { WebhooksPage } from './pages/webhooks';
import { TemplatesPage } from './pages/templates';
import { SuppressionsPage } from './pages/suppressions';
import { TokensPage } from './pages/tokens';
import { SmtpUsersPage } from './pages/smtp-users';
import { UsersPage } from './pages/users';
import { VerificationPage } from './pages/verification';
import { SmsPage, useHasSmsNumbers } from './pages/sms';
import { AccountPage } from './pages/account';
import { OverviewPage, useSandbox } from './pages/overview';
import { InboxPage, SYSTEM_MAIL_READERS } from './pages/inbox';
import { UsagePage } from './pages/usage';
import { IdentitiesPage } from './pages/identities';
import { RecipientsPage } from './pages/recipients';
import { BulkPage } from './pages/bulk';
import { InboundsPage } from './pages/inbounds';

// The two pages that draw charts load chart.js with them, on first visit.
const AnalyticsPage = lazy(() => import('./pages/analytics').then((m) => ({ default: m.AnalyticsPage })));
const MonitorsPage = lazy(() => import('./pages/monitors').then((m) => ({ default: m.MonitorsPage })));

interface Section {
  path: string;
  label: string;
  /** Any one of these permissions shows the page to a signed-in user. */
  needs: string[];
  page: ComponentType<{ rest: string[] }>;
}

const SECTIONS: Section[] = [
  { path: 'overview', label: 'Overview', needs: [], page: OverviewPage },
  { path: 'domains', label: 'Domains', needs: ['manage-domain'], page: DomainsPage },
  { path: 'activity', label: 'Activity', needs: ['read-activity'], page: ActivityPage },
  { path: 'emails', label: 'Email log', needs: ['read-email'], page: EmailsPage },
  { path: 'bulk', label: 'Bulk email', needs: ['control-sendings'], page: BulkPage },
  { path: 'inbox', label: 'Sandbox inbox', needs: ['read-activity', ...SYSTEM_MAIL_READERS], page: InboxPage },
  { path: 'identities', label: 'Sender identities', needs: ['read-sender-identities', 'manage-sender-identities'], page: IdentitiesPage },
  { path: 'inbound', label: 'Inbound routes', needs: ['manage-inbound'], page: InboundsPage },
  { path: 'webhooks', label: 'Webhooks', needs: ['manage-webhook'], page: WebhooksPage },
  { path: 'analytics', label: 'Analytics', needs: ['read-analytics'], page: AnalyticsPage },
  { path: 'templates', label: 'Templates', needs: ['read-own-templates', 'read-all-templates', 'manage-template'], page: TemplatesPage },
  { path: 'suppressions', label: 'Suppressions', needs: ['read-suppressions', 'manage-suppressions'], page: SuppressionsPage },
  { path: 'recipients', label: 'Recipients', needs: ['read-recipient'], page: RecipientsPage },
  { path: 'tokens', label: 'API tokens', needs: ['manage-api-token'], page: TokensPage },
  { path: 'smtp-users', label: 'SMTP users', needs: ['view-smtp-users', 'manage-smtp-users'], page: SmtpUsersPage },
  { path: 'users', label: 'Users', needs: ['manage-account'], page: UsersPage },
  { path: 'verification', label: 'Verification', needs: ['read-email-verification', 'manage-email-verification'], page: VerificationPage },
  { path: 'monitors', label: 'Monitors', needs: ['manage-dmarc', 'manage-blocklist'], page: MonitorsPage },
  { path: 'sms', label: 'SMS', needs: ['read-sms'], page: SmsPage },
  { path: 'usage', label: 'Plan and usage', needs: [], page: UsagePage },
  { path: 'account', label: 'Your account', needs: [], page: AccountPage },
];

function Signed({ onOut, onEnded }: { onOut: () => void; onEnded: () => void }) {
  const [client] = useState(() =>
    makeClient(() => {
      forget();
      onEnded();
    }),
  );
  return (
    <Provider value={client}>
      <Shell onOut={onOut} />
    </Provider>
  );
}

function Shell({ onOut }: { onOut: () => void }) {
  const [first, ...rest] = useRoute();
  const hasSms = useHasSmsNumbers(allowed(['read-sms']));
  const sandbox = useSandbox();
  const visible = SECTIONS.filter(
    (s) => allowed(s.needs) && (s.path !== 'sms' || hasSms) && (s.path !== 'inbox' || sandbox) && (s.path !== 'account' || session().user),
  );
  // No address: the first page. A page the user may not see says so; an unknown address says not found.
  const current = first ? visible.find((s) => s.path === first) : visible[0];
  const hidden = first && !current ? SECTIONS.find((s) => s.path === first) : undefined;
  const who = session().user;
  const Page = current?.page;
  useNavigationCues(current?.label ?? hidden?.label ?? (first ? 'Not found' : 'Postbox'), [first, ...rest].join('/'));
  return (
    <div className="shell">
      <a className="skip" href="#main" onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}>
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Postbox</span>
        <span className="who">{who ? `${who.email} (${who.role})` : 'API token'}</span>
        <button type="button" onClick={() => void logout().then(onOut)}>
          Sign out
        </button>
      </header>
      <nav className="side" aria-label="Console">
        <ul>
          {visible.map((s) => (
            <li key={s.path}>
              <a href={`#/${s.path}`} aria-current={s === current ? 'page' : undefined}>
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<p>Loading…</p>}>
          {Page && current ? <Page key={current.path} rest={rest} /> : <Unreachable first={first} hidden={hidden} any={visible.length > 0} />}
        </Suspense>
      </main>
    </div>
  );
}

/**
 * What changes with the address besides the page: the window's title names the page, and after a
 * navigation (not the first load) focus moves to the new page's heading, where a screen reader
 * starts reading. A page drawn after its code loads gets its heading focused once it is there.
 */
function useNavigationCues(label: string, address: string) {
  const first = useRef(true);
  useEffect(() => {
    document.title = `${label} · Postbox console`;
  }, [label]);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    let tries = 0;
    const timer = setInterval(() => {
      const heading = document.querySelector<HTMLElement>('main h1');
      if (heading || ++tries > 20) clearInterval(timer);
      heading?.focus();
    }, 50);
    return () => clearInterval(timer);
  }, [address]);
}

/** What the page area says when the address shows no page: refused (403), unknown (404), or no page at all for the role. */
function Unreachable({ first, hidden, any }: { first?: string; hidden?: Section; any: boolean }) {
  if (hidden && !allowed(hidden.needs)) {
    return (
      <>
        <h1 tabIndex={-1}>{hidden.label}</h1>
        <p role="alert">Your role may not see this page (403). Ask an admin of the account for access.</p>
      </>
    );
  }
  if (hidden) {
    // Allowed, but not offered here: SMS without a number, the sandbox inbox while mail is sent.
    return (
      <>
        <h1 tabIndex={-1}>{hidden.label}</h1>
        <p>This page is not in use on this account or service.</p>
      </>
    );
  }
  if (first) {
    return (
      <>
        <h1 tabIndex={-1}>Not found</h1>
        <p role="alert">
          There is no page at this address (404). <a href="#/">Go to the first page.</a>
        </p>
      </>
    );
  }
  return any ? null : <p>Your role has no pages in the console.</p>;
}

export function App() {
  const [state, setState] = useState<'loading' | 'in' | 'out' | 'ended'>('loading');
  useEffect(() => {
    restore()
      .then((s) => setState(s.user || s.token ? 'in' : 'out'))
      .catch(() => setState('out'));
  }, []);
  if (state === 'loading') return <p className="loading">Loading…</p>;
  // The address stays as it was: signing in again returns to the same page.
  if (state === 'out' || state === 'ended') return <LoginPage ended={state === 'ended'} onIn={() => setState('in')} />;
  return <Signed onOut={() => setState('out')} onEnded={() => setState('ended')} />;
}
