import { dkimKeyPair } from '../../src/modules/domains/domain.service.js';
import { randomBytes } from 'node:crypto';
import { Domain } from '../../src/modules/domains/domain.entity.js';
import { Account } from '../../src/modules/accounts/account.entity.js';
import { Recipient } from '../../src/modules/recipients/recipient.entity.js';
import type { TestServer } from './server.js';

/** The account id behind a token (the admin token's when none is given). */
export async function accountIdOf(s: TestServer, token?: string): Promise<string> {
  const res = await s.gql('query { whoami { account_id } }', {}, token);
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data.whoami.account_id;
}

/**
 * A sending domain of an account, seeded straight into the database (DKIM key fields are
 * placeholders: these tests do not sign mail). Domain behaviour itself is tested through /v1
 * in test/domains.
 */
export async function seedDomain(
  s: TestServer,
  opts: { accountId?: string; token?: string; name?: string; verified?: boolean; dkim?: boolean } = {},
): Promise<{ id: string; name: string }> {
  const accountId = opts.accountId ?? (await accountIdOf(s, opts.token));
  const em = s.app.services.orm.em.fork();
  const name = opts.name ?? `d${randomBytes(4).toString('hex')}.example.test`;
  // Real keys only where mail is signed: generating RSA-2048 takes a while.
  const keys = opts.dkim ? await dkimKeyPair(s.app.services.config.APP_SECRET) : { publicKey: 'test', privateKeyEnc: 'test' };
  const domain = em.create(Domain, {
    account: em.getReference(Account, accountId),
    name,
    dkim_selector: 'pb1',
    dkim_public_key: keys.publicKey,
    dkim_private_key_enc: keys.privateKeyEnc,
    is_verified: opts.verified ?? true,
    dkim: opts.verified ?? true,
    spf: opts.verified ?? true,
    is_dns_active: opts.verified ?? true,
  } as never);
  await em.flush();
  return { id: domain.id, name };
}

/** A recipient of a domain, as sending will record it (sending is not built yet). */
export async function seedRecipient(s: TestServer, domainId: string, email: string): Promise<{ id: string; email: string }> {
  const em = s.app.services.orm.em.fork();
  const domain = await em.findOneOrFail(Domain, { id: domainId }, { populate: ['account'] });
  const recipient = em.create(Recipient, { account: domain.account, domain, email } as never);
  await em.flush();
  return { id: recipient.id, email };
}
