import { OperatorResolver } from '../modules/accounts/operator.resolver.js';
import { DomainResolver } from '../modules/domains/domain.resolver.js';
import { IdentityResolver } from '../modules/identities/identity.resolver.js';
import { RecipientResolver } from '../modules/recipients/recipient.resolver.js';
import { SmtpUserResolver } from '../modules/smtp-users/smtp-user.resolver.js';
import { SuppressionResolver } from '../modules/suppressions/suppression.resolver.js';
import { TemplateResolver } from '../modules/templates/template.resolver.js';
import { TokenResolver } from '../modules/tokens/token.resolver.js';
import { UserResolver } from '../modules/users/user.resolver.js';

/** Every resolver of the schema. */
export const resolvers = [
  OperatorResolver,
  TokenResolver,
  DomainResolver,
  IdentityResolver,
  SmtpUserResolver,
  UserResolver,
  TemplateResolver,
  RecipientResolver,
  SuppressionResolver,
] as const;
