import { Args, Authorized, Ctx as Context, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { DomainRecipientsArgs } from './recipient.inputs.js';
import { RecipientService } from './recipient.service.js';
import { RecipientPage, toRecipient } from './recipient.type.js';

/**
 * A domain's recipients (GET /v1/domains/{domain_id}/recipients): the recipients list limited to
 * that domain. It lives with recipients, which depend on domains, not the other way round; it is
 * registered right after the domain resolver, where the schema has always listed it.
 */
@Resolver()
export class DomainRecipientsResolver {
  @Authorized('recipients_read')
  @Query(() => RecipientPage)
  async domain_recipients(@Context() ctx: Ctx, @Args() args: DomainRecipientsArgs): Promise<RecipientPage> {
    const { rows, meta } = await new RecipientService(ctx.em).list(caller(ctx), args);
    return { data: rows.map(toRecipient), meta };
  }
}
