import type { ModuleManifest } from '../module.js';
import { TokenResolver } from './token.resolver.js';
import { tokenRoutes } from './token.rest.js';

export const tokensModule: ModuleManifest = {
  name: 'tokens',
  resolvers: [TokenResolver],
  // SPEC.md's token has no domain; the console lists each token's limit on GraphQL.
  hiddenOnRest: ['Token.domain_id'],
  rest: [
    { name: 'Tokens', description: 'API tokens of the account: their scopes, domain limit and pause state.', routes: tokenRoutes },
  ],
};
