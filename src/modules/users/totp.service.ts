import type { EntityManager } from '@mikro-orm/postgresql';
import { Secret, TOTP } from 'otpauth';
import type { Config } from '../../config/index.js';
import { decrypt, encrypt, randomSecret, sha256Hex } from '../../lib/secrets.js';
import { SessionRepository } from './session.repository.js';
import { AccountUser } from './user.entity.js';

const ISSUER = 'Postbox';
const RECOVERY_CODES = 10;

type Secrets = Pick<Config, 'APP_SECRET'>;


function totpOf(email: string, base32: string): TOTP {
  return new TOTP({ issuer: ISSUER, label: email, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(base32) });
}

const PERIOD_MS = 30_000;

/** The time step a code of the sealed secret belongs to (one step of clock drift either way), or null. */
function stepOf(config: Secrets, email: string, sealed: string | null, code: string | undefined): number | null {
  if (!sealed || !code || !/^\d{6}$/.test(code.trim())) return null;
  const now = Date.now();
  const delta = totpOf(email, decrypt(config.APP_SECRET, sealed)).validate({ token: code.trim(), window: 1, timestamp: now });
  return delta === null ? null : Math.floor(now / PERIOD_MS) + delta;
}

const codeMatches = (config: Secrets, email: string, sealed: string | null, code: string | undefined) => stepOf(config, email, sealed, code) !== null;

const normalCode = (code: string) => code.trim().toLowerCase().replace(/[\s-]/g, '');

/** The second factor at login: a current TOTP code, or an unused recovery code (used up by this). */
export async function checkSecondFactor(
  em: EntityManager,
  config: Secrets,
  user: AccountUser,
  given: { totp?: string; recovery_code?: string },
): Promise<boolean> {
  const step = stepOf(config, user.email, user.totp_secret, given.totp);
  // A code logs in once: a replay within its window is refused like a wrong one.
  if (step !== null && (await new SessionRepository(em).useTotpStep(user.id, step))) return true;
  if (!given.recovery_code) return false;
  return new SessionRepository(em).useRecoveryCode(user.id, sha256Hex(normalCode(given.recovery_code)));
}

/** TOTP enrolment: a pending secret, confirmed by a code from it, then recovery codes shown once. */
export class TotpService {
  constructor(
    private readonly em: EntityManager,
    private readonly config: Secrets,
  ) {}

  /** A new secret to scan; it only counts once confirmed. Enrolling again replaces a pending one. */
  async enroll(userId: string): Promise<{ secret: string; otpauth_url: string } | 'enabled'> {
    const user = await this.em.findOneOrFail(AccountUser, { id: userId });
    if (user.totp_secret) return 'enabled';
    const secret = new Secret({ size: 20 }).base32;
    user.totp_pending = encrypt(this.config.APP_SECRET, secret);
    await this.em.flush();
    return { secret, otpauth_url: totpOf(user.email, secret).toString() };
  }

  /**
   * A code of the pending secret turns 2FA on; answers the recovery codes (stored hashed, single
   * use). The user's other sessions end with it (`ended`): one opened with a stolen password must
   * not outlive the second factor (test/auth/totp.test.ts). The session that turned it on stays.
   */
  async confirm(userId: string, code: string, keepSessionId: string): Promise<{ codes: string[]; ended: string[] } | null> {
    const user = await this.em.findOneOrFail(AccountUser, { id: userId });
    if (!codeMatches(this.config, user.email, user.totp_pending, code)) return null;
    const codes = Array.from({ length: RECOVERY_CODES }, () => {
      const raw = randomSecret(8).toLowerCase().replace(/[^a-z0-9]/g, '').padEnd(10, '0').slice(0, 10);
      return `${raw.slice(0, 5)}-${raw.slice(5)}`;
    });
    const ended = await this.em.transactional(async (tx) => {
      await tx.nativeUpdate(
        AccountUser,
        { id: userId },
        { totp_secret: user.totp_pending, totp_pending: null, two_fa: true, recovery_codes: codes.map((c) => sha256Hex(normalCode(c))) },
      );
      return new SessionRepository(tx).endOthers(userId, keepSessionId);
    });
    return { codes, ended };
  }

  /** Turning 2FA off takes a current code (or a recovery code), not just the session. */
  async disable(userId: string, code: string): Promise<boolean> {
    const user = await this.em.findOneOrFail(AccountUser, { id: userId });
    if (!user.totp_secret) return true;
    // A current code (not consumed: this is no login), or a recovery code (used up).
    const ok =
      codeMatches(this.config, user.email, user.totp_secret, code) ||
      (await new SessionRepository(this.em).useRecoveryCode(user.id, sha256Hex(normalCode(code))));
    if (!ok) return false;
    await this.em.nativeUpdate(AccountUser, { id: userId }, { totp_secret: null, totp_pending: null, two_fa: false, recovery_codes: [] });
    return true;
  }
}
