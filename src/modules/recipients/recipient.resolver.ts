import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { toDomain } from '../domains/domain.mapper.js';
import { notQueuedOf } from '../domains/domain.service.js';
import { RecipientIdArgs, RecipientListArgs } from './recipient.inputs.js';
import { RecipientService } from './recipient.service.js';
import { RecipientDetail, RecipientPage, toRecipient } from './recipient.type.js';

const svc = (ctx: Ctx) => new RecipientService(ctx.em);

@Resolver()
export class RecipientResolver {
  @Authorized('recipients_read')
  @Query(() => RecipientPage)
  async recipients(@Context() ctx: Ctx, @Args() args: RecipientListArgs): Promise<RecipientPage> {
    const { rows, meta } = await svc(ctx).list(caller(ctx), args);
    return { data: rows.map(toRecipient), meta };
  }

  @Authorized('recipients_read')
  @Query(() => RecipientDetail)
  async recipient(@Context() ctx: Ctx, @Args() { recipient_id }: RecipientIdArgs): Promise<RecipientDetail> {
    const service = svc(ctx);
    const r = await service.get(caller(ctx), recipient_id);
    return { ...toRecipient(r), emails: await service.emails(r), domain: toDomain(r.domain, await notQueuedOf(ctx.em, r.domain.id)) };
  }

  @Authorized('recipients_full')
  @Mutation(() => Boolean)
  async delete_recipient(@Context() ctx: Ctx, @Args() { recipient_id }: RecipientIdArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), recipient_id);
  }
}
