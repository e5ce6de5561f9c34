import { Args, Authorized, Ctx as Context, Field, ID, Mutation, ObjectType, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { SendSmsArgs } from './send.inputs.js';
import { acceptSms } from './send.service.js';
import { WHOLE_ACCOUNT } from '../../core/scopes.js';

@ObjectType('SendSmsResult')
export class SendSmsResult {
  @Field(() => ID, { description: 'The x-sms-message-id of /v1: the id of GET /v1/sms-messages/{id}.' })
  sms_message_id!: string;
}

@Resolver()
export class SmsSendResolver {
  @Authorized(['sms_full', WHOLE_ACCOUNT])
  @Mutation(() => SendSmsResult, { description: 'Accepts one SMS send (POST /v1/sms): one text per recipient, sent in the background.' })
  async send_sms(@Context() ctx: Ctx, @Args() args: SendSmsArgs): Promise<SendSmsResult> {
    return acceptSms(ctx.services, ctx.em, caller(ctx), args);
  }
}
