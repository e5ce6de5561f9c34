import { OperatorResolver } from '../modules/accounts/operator.resolver.js';
import { TokenResolver } from '../modules/tokens/token.resolver.js';

/** Every resolver of the schema. */
export const resolvers = [OperatorResolver, TokenResolver] as const;
