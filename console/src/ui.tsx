import { useEffect, useState, type ReactNode } from 'react';
import { useQuery, type CombinedError } from 'urql';
import { graphql } from './gql';

/** The hash route as path segments: `#/webhooks/42` -> ['webhooks', '42']. */
export function useRoute(): string[] {
  const read = () => window.location.hash.replace(/^#\/?/, '').split('?')[0].split('/').filter(Boolean).map(decodeURIComponent);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const on = () => setRoute(read());
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);
  return route;
}

export function go(path: string): void {
  window.location.hash = `#/${path}`;
}

export function ErrorNote({ error }: { error?: CombinedError | string | null }) {
  if (!error) return null;
  const first = typeof error === 'string' ? null : error.graphQLErrors[0];
  const text = typeof error === 'string' ? error : (first?.message ?? error.message);
  // A validation error names its fields (extensions.errors: { field: [messages] }).
  const fields = Object.entries((first?.extensions?.errors ?? {}) as Record<string, string[]>);
  return (
    <div className="error" role="alert">
      {text}
      {fields.length ? (
        <ul>
          {fields.map(([field, messages]) => (
            <li key={field}>{Array.isArray(messages) ? messages.join(' ') : String(messages)}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function Notice({ children }: { children: ReactNode }) {
  return (
    <p className="notice" role="status">
      {children}
    </p>
  );
}

export function PageTitle({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <header className="page-head">
      <h1 tabIndex={-1}>{children}</h1>
      {actions ? <div className="actions">{actions}</div> : null}
    </header>
  );
}

/** Copies a value; says so where a screen reader hears it. `secret`: the value is not read out. */
export function CopyButton({ value, label = 'Copy', secret = false }: { value: string; label?: string; secret?: boolean }) {
  const [done, setDone] = useState(false);
  return (
    <button
      type="button"
      className="small"
      aria-label={secret ? label : `${label}: ${value.slice(0, 40)}`}
      onClick={() => {
        void navigator.clipboard?.writeText(value).catch(() => undefined);
        setDone(true);
        setTimeout(() => setDone(false), 1500);
      }}
    >
      {done ? 'Copied' : label}
    </button>
  );
}

// The domains the user reaches, whatever its permissions over them (reading activity needs no
// domain management): the overview module's domain_choices.
const DomainsForPicker = graphql(`
  query ConsoleDomainPicker {
    domain_choices {
      id
      name
    }
  }
`);

const DOMAIN_KEY = 'pb_domain';

/** The domain the domain-bound pages show, remembered across pages. */
export function useDomainChoice(): { domainId: string | null; domainName: string | null; picker: ReactNode } {
  const [{ data, error }] = useQuery({ query: DomainsForPicker });
  const [chosen, setChosen] = useState<string | null>(() => localStorage.getItem(DOMAIN_KEY));
  const domains = data?.domain_choices ?? [];
  const domainId = domains.some((d) => d.id === chosen) ? chosen : (domains[0]?.id ?? null);
  const picker = error ? (
    <ErrorNote error={error} />
  ) : (
    <label className="inline">
      Domain{' '}
      <select
        value={domainId ?? ''}
        onChange={(e) => {
          localStorage.setItem(DOMAIN_KEY, e.target.value);
          setChosen(e.target.value);
        }}
      >
        {domains.map((d) => (
          <option key={d.id} value={d.id}>
            {d.name}
          </option>
        ))}
      </select>
    </label>
  );
  return { domainId, domainName: domains.find((d) => d.id === domainId)?.name ?? null, picker };
}

/** Previous / next for the pages of a list. */
export function Pager({ page, setPage, more }: { page: number; setPage: (p: number) => void; more: boolean }) {
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
        Previous
      </button>
      <span>Page {page}</span>
      <button type="button" disabled={!more} onClick={() => setPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

export function lines(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A table's header row; `actions` adds the last column of row buttons, named for screen readers. */
export function TableHead({ columns, actions = false }: { columns: string[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c}>{c}</th>
        ))}
        {actions ? (
          <th>
            <span className="sr-only">Actions</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}

const pad = (n: number) => String(n).padStart(2, '0');
/** SPEC.md's plain timestamps ('YYYY-MM-DD HH:mm:ss') are UTC. */
const PLAIN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/**
 * A moment as every page shows one: the viewer's local date and time, the UTC time on hover (and
 * in `dateTime`). Takes ISO 8601 or a plain UTC timestamp, as the API answers either.
 */
export function When({ at }: { at: string | null | undefined }) {
  if (!at) return <span className="muted">–</span>;
  const d = new Date(PLAIN.test(at) ? `${at.replace(' ', 'T')}Z` : at);
  if (Number.isNaN(d.getTime())) return <>{at}</>;
  const local = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const utc = `${d.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  return (
    <time className="nowrap" dateTime={d.toISOString()} title={utc}>
      {local}
    </time>
  );
}

/**
 * One CSV cell: quoted when it holds a quote, comma or line break, and a leading =, +, - or @
 * made text (a quote in front), so a spreadsheet never runs a subject or address as a formula.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Saves rows as `<name>.csv`, made in the page (nothing is sent anywhere). */
export function downloadCsv(name: string, header: string[], rows: string[][]): void {
  const csv = [header, ...rows].map((r) => r.map(csvCell).join(',')).join('\n');
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
  a.download = `${name}.csv`;
  a.click();
  URL.revokeObjectURL(a.href);
}

/** What an empty list says instead of a bare table header: what it would hold, and how to start. */
export function Empty({ when, children }: { when: boolean; children: ReactNode }) {
  return when ? <p className="empty">{children}</p> : null;
}

/** The number of days a page's figures cover, among `choices`. */
export function RangeSelect({ days, setDays, choices }: { days: number; setDays: (d: number) => void; choices: number[] }) {
  return (
    <label className="inline">
      Range{' '}
      <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
        {choices.map((d) => (
          <option key={d} value={d}>
            {d} days
          </option>
        ))}
      </select>
    </label>
  );
}
