import { Args, Authorized, Ctx as Context, Mutation, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { SendEmailArgs } from './send.inputs.js';
import { acceptSend } from './send.service.js';
import { SendEmailResult } from './send.type.js';

@Resolver()
export class SendResolver {
  @Authorized('email_full')
  @Mutation(() => SendEmailResult, {
    description: 'Accepts one email for sending (POST /v1/email). An Idempotency-Key request header makes retries safe for 24 h.',
  })
  async send_email(@Context() ctx: Ctx, @Args() args: SendEmailArgs): Promise<SendEmailResult> {
    const result = await acceptSend(ctx.services, ctx.em, caller(ctx), args, { idempotencyKey: ctx.idempotencyKey, surface: ctx.surface ?? 'graphql' });
    return {
      ...result,
      message: result.warnings.length ? 'There are some warnings for your request.' : null,
    };
  }
}
