import { useEffect, useState, type FormEvent } from 'react';
import QRCode from 'qrcode';
import { authHeaders, session } from '../session';
import { CopyButton, ErrorNote, Notice, PageTitle } from '../ui';

/** POST to an /auth route as the session (its CSRF token goes along); the JSON answer, or throws its message. */
async function auth<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', ...authHeaders() },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!res.ok) {
    const message = String(json.message ?? `Refused (${res.status}).`);
    // The field messages add what the message does not already say (often it is the same sentence).
    const fields = Object.values((json.errors ?? {}) as Record<string, string[]>).flat().filter((f) => f !== message);
    throw new Error([message, ...fields].join(' '));
  }
  return json as T;
}

function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    setDone(false);
    try {
      await auth('/auth/password', { current_password: current, new_password: next });
      setDone(true);
      setCurrent('');
      setNext('');
    } catch (err) {
      setError((err as Error).message);
    }
  }
  return (
    <form className="stack" onSubmit={submit} aria-label="Change password">
      <h2>Password</h2>
      <label>
        Current password
        <input type="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />
      </label>
      <label>
        New password (at least 10 characters)
        <input type="password" autoComplete="new-password" required minLength={10} value={next} onChange={(e) => setNext(e.target.value)} />
      </label>
      <ErrorNote error={error} />
      {done ? <Notice>Password changed; your other sessions were signed out.</Notice> : null}
      <button type="submit" className="primary">
        Change password
      </button>
    </form>
  );
}

/** The enrolment link as a QR code (an SVG drawn here, shown as an image: nothing leaves the page). */
function QrCode({ value }: { value: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void QRCode.toString(value, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }).then((text) => live && setSvg(text));
    return () => {
      live = false;
    };
  }, [value]);
  if (!svg) return null;
  return <img className="qr" width={200} height={200} alt="QR code of the authenticator key" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} />;
}

function TwoFactor() {
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauth_url: string } | null>(null);
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const [off, setOff] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = (work: () => Promise<void>) => (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    work().catch((err: Error) => setError(err.message));
  };
  return (
    <section aria-labelledby="twofa" className="stack">
      <h2 id="twofa">Two-factor authentication</h2>
      <ErrorNote error={error} />
      {codes ? (
        <div className="secret" role="status">
          <p>Two-factor authentication is on. Keep these recovery codes somewhere safe: each works once, and they are not shown again.</p>
          <pre className="text">{codes.join('\n')}</pre>
          <CopyButton value={codes.join('\n')} label="Copy recovery codes" />
        </div>
      ) : enrolment ? (
        <form className="stack" onSubmit={run(async () => setCodes((await auth<{ recovery_codes: string[] }>('/auth/totp/confirm', { code })).recovery_codes))}>
          <p>Scan this code with your authenticator app, then enter the code it shows.</p>
          <QrCode value={enrolment.otpauth_url} />
          <p>
            Or type the key into it: <code>{enrolment.secret}</code> <CopyButton value={enrolment.secret} label="Copy key" />
          </p>
          <p className="small wrap">
            Or open <a href={enrolment.otpauth_url}>{enrolment.otpauth_url}</a> on a device with an authenticator app.
          </p>
          <label>
            Code
            <input inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
          </label>
          <button type="submit" className="primary">
            Turn on
          </button>
        </form>
      ) : (
        <>
          <form onSubmit={run(async () => setEnrolment(await auth('/auth/totp/enroll', {})))}>
            <button type="submit">Set up two-factor authentication</button>
          </form>
          <form className="row" aria-label="Turn off two-factor authentication" onSubmit={run(async () => (await auth('/auth/totp/disable', { code }), setOff(true)))}>
            <label>
              Code (to turn it off)
              <input inputMode="numeric" value={code} onChange={(e) => setCode(e.target.value)} />
            </label>
            <button type="submit">Turn off</button>
          </form>
          {off ? <Notice>Two-factor authentication is off.</Notice> : null}
        </>
      )}
    </section>
  );
}

/** The signed-in user's own settings: password and 2FA (through /auth, as the session). */
export function AccountPage() {
  const user = session().user;
  if (!user) return <p>Signed in with an API token: there is no user account to manage.</p>;
  return (
    <>
      <PageTitle>Your account</PageTitle>
      <p>
        {user.name} · {user.email} · {user.role}
      </p>
      {session().passwordChangeRequired ? <Notice>Your password has to be changed before you can go on.</Notice> : null}
      <PasswordForm />
      <TwoFactor />
    </>
  );
}
