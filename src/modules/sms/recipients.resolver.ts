import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { SmsRecipientIdArgs, SmsRecipientListArgs, UpdateSmsRecipientArgs } from './recipients.inputs.js';
import { SmsRecipientService } from './recipients.service.js';
import { SmsRecipientDetail, SmsRecipientType, toSmsRecipient, toSmsRecipientDetail } from './recipients.type.js';
import { WHOLE_ACCOUNT } from '../../core/scopes.js';

const svc = (ctx: Ctx) => new SmsRecipientService(ctx.em);

@Resolver()
export class SmsRecipientResolver {
  @Authorized(['sms_read', WHOLE_ACCOUNT])
  @Query(() => [SmsRecipientType], { description: 'Numbers the account has texted, newest first.' })
  async sms_recipients(@Context() ctx: Ctx, @Args() args: SmsRecipientListArgs): Promise<SmsRecipientType[]> {
    return (await svc(ctx).list(caller(ctx), args)).map(toSmsRecipient);
  }

  @Authorized(['sms_read', WHOLE_ACCOUNT])
  @Query(() => SmsRecipientDetail, { description: 'One recipient with its most recent texts.' })
  async sms_recipient(@Context() ctx: Ctx, @Args() { sms_recipient_id }: SmsRecipientIdArgs): Promise<SmsRecipientDetail> {
    const { recipient, sms } = await svc(ctx).get(caller(ctx), sms_recipient_id);
    return toSmsRecipientDetail(recipient, sms);
  }

  @Authorized(['sms_full', WHOLE_ACCOUNT])
  @Mutation(() => SmsRecipientDetail, { description: 'Opt a number out (its texts are then skipped) or back in.' })
  async update_sms_recipient(@Context() ctx: Ctx, @Args() args: UpdateSmsRecipientArgs): Promise<SmsRecipientDetail> {
    const { recipient, sms } = await svc(ctx).update(caller(ctx), args);
    return toSmsRecipientDetail(recipient, sms);
  }
}
