import { useState, type FormEvent } from 'react';
import { login, requestReset, useToken, type LoginAnswer } from './session';
import { ErrorNote } from './ui';

/** Email and password (and a TOTP code when the account asks for one), or an API token. */
export function LoginPage({ onIn, ended = false }: { onIn: () => void; ended?: boolean }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [needTotp, setNeedTotp] = useState(false);
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [resetSent, setResetSent] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const answer = await login(email, password, needTotp ? totp : undefined).catch((): LoginAnswer => ({ ok: false, message: 'The server did not answer.' }));
    setBusy(false);
    if (answer.ok) {
      if (answer.passwordChangeRequired) window.location.hash = '#/account';
      return onIn();
    }
    if (answer.totpRequired) setNeedTotp(true);
    setError(answer.message ?? 'Sign-in failed.');
  }

  async function submitToken(e: FormEvent) {
    e.preventDefault();
    const answer = await useToken(token.trim());
    if (answer.ok) return onIn();
    setError(answer.message ?? 'That token is not valid.');
  }

  return (
    <main className="login">
      <h1>Postbox</h1>
      {ended ? (
        <p className="banner" role="alert">
          Your session ended (signed out elsewhere, or it expired). Sign in again to go on where you were.
        </p>
      ) : null}
      <form onSubmit={submit} aria-label="Sign in">
        <label>
          Email
          <input type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} autoFocus />
        </label>
        <label>
          Password
          <input type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        {needTotp ? (
          <label>
            Authenticator code
            <input inputMode="numeric" autoComplete="one-time-code" value={totp} onChange={(e) => setTotp(e.target.value)} />
          </label>
        ) : null}
        <ErrorNote error={error} />
        <button type="submit" className="primary" disabled={busy}>
          Sign in
        </button>
      </form>
      <details>
        <summary>Use an API token instead</summary>
        <form onSubmit={submitToken} aria-label="Use an API token">
          <label>
            API token
            <input type="password" value={token} onChange={(e) => setToken(e.target.value)} />
          </label>
          <button type="submit">Use token</button>
        </form>
      </details>
      <details>
        <summary>Forgot your password?</summary>
        <form
          aria-label="Reset password"
          onSubmit={(e) => {
            e.preventDefault();
            void requestReset(email).then((ok) => setResetSent(ok));
          }}
        >
          <p className="muted">Enter your email above; a link to set a new password is mailed to it.</p>
          <button type="submit" disabled={!email}>
            Mail me a reset link
          </button>
          {resetSent ? <p role="status">If the address has an account, a reset link is on its way.</p> : null}
        </form>
      </details>
    </main>
  );
}
