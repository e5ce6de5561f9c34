import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { AsyncVerificationIdArgs, VerifyEmailArgs } from './verification.inputs.js';
import { VerificationService } from './verification.service.js';
import { AsyncEmailVerification, SingleEmailVerification, toAsyncVerification } from './verification.type.js';
import { WHOLE_ACCOUNT } from '../../core/scopes.js';

const svc = (ctx: Ctx) => new VerificationService(ctx.em, ctx.services);

@Resolver()
export class VerificationResolver {
  @Authorized(['email_verification_full', WHOLE_ACCOUNT])
  @Mutation(() => SingleEmailVerification, { description: 'Verifies one address now (costs 1 verification credit unless the result is failed).' })
  async verify_email(@Context() ctx: Ctx, @Args() { email }: VerifyEmailArgs): Promise<SingleEmailVerification> {
    return { status: await svc(ctx).verify(caller(ctx), email) };
  }

  @Authorized(['email_verification_full', WHOLE_ACCOUNT])
  @Mutation(() => AsyncEmailVerification, { description: 'Queues a verification (1 credit, refunded if it ends failed); read it with async_email_verification.' })
  async verify_email_async(@Context() ctx: Ctx, @Args() { email }: VerifyEmailArgs): Promise<AsyncEmailVerification> {
    return toAsyncVerification(await svc(ctx).verifyAsync(caller(ctx), email));
  }

  @Authorized(['email_verification_read', WHOLE_ACCOUNT])
  @Query(() => AsyncEmailVerification)
  async async_email_verification(@Context() ctx: Ctx, @Args() { email_verification_id }: AsyncVerificationIdArgs): Promise<AsyncEmailVerification> {
    return toAsyncVerification(await svc(ctx).getAsync(caller(ctx), email_verification_id));
  }
}
