import type { ApiToken } from './token.entity.js';
import type { TokenRow } from './token.repository.js';
import type { Token } from './token.type.js';

/** A token as the API shows it; also the payload of token events (token.service.ts), so it loads no GraphQL. */
export function toToken(t: ApiToken | TokenRow): Token {
  const domainId = 'domain_id' in t ? t.domain_id : (t.domain?.id ?? null);
  return { id: t.id, name: t.name, status: t.status, created_at: t.created_at, scopes: t.scopes, domain_id: domainId };
}
