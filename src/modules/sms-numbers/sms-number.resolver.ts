import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { SmsNumberIdArgs, SmsNumberListArgs, UpdateSmsNumberArgs } from './sms-number.inputs.js';
import { SmsNumberService } from './sms-number.service.js';
import { SmsNumberPage, SmsNumberType, toSmsNumber } from './sms-number.type.js';
import { WHOLE_ACCOUNT } from '../../core/scopes.js';

const svc = (ctx: Ctx) => new SmsNumberService(ctx.em, ctx.services);

@Resolver()
export class SmsNumberResolver {
  @Authorized(['sms_read', WHOLE_ACCOUNT])
  @Query(() => [SmsNumberType], { description: 'The account\'s SMS phone numbers, newest first.' })
  async sms_numbers(@Context() ctx: Ctx, @Args() args: SmsNumberListArgs): Promise<SmsNumberType[]> {
    return (await svc(ctx).list(caller(ctx), args)).map(toSmsNumber);
  }

  @Authorized(['sms_read', WHOLE_ACCOUNT])
  @Query(() => SmsNumberPage, { description: 'The account\'s SMS phone numbers, newest first, with the full pager (GET /v1/sms-numbers).' })
  async sms_numbers_page(@Context() ctx: Ctx, @Args() args: SmsNumberListArgs): Promise<SmsNumberPage> {
    const { rows, meta } = await svc(ctx).page(caller(ctx), args);
    return { data: rows.map(toSmsNumber), meta };
  }

  @Authorized(['sms_read', WHOLE_ACCOUNT])
  @Query(() => SmsNumberType)
  async sms_number(@Context() ctx: Ctx, @Args() { sms_number_id }: SmsNumberIdArgs): Promise<SmsNumberType> {
    return toSmsNumber(await svc(ctx).get(caller(ctx), sms_number_id));
  }

  @Authorized(['sms_full', WHOLE_ACCOUNT])
  @Mutation(() => SmsNumberType, { description: 'Pause or unpause; unpausing sends the texts that waited.' })
  async update_sms_number(@Context() ctx: Ctx, @Args() args: UpdateSmsNumberArgs): Promise<SmsNumberType> {
    return toSmsNumber(await svc(ctx).update(caller(ctx), args));
  }

  @Authorized(['sms_full', WHOLE_ACCOUNT])
  @Mutation(() => Boolean, { description: 'Releases the number, with its messages, texts and activity.' })
  async delete_sms_number(@Context() ctx: Ctx, @Args() { sms_number_id }: SmsNumberIdArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), sms_number_id);
  }
}
