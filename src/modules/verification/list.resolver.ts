import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { AddVerificationListEmailsArgs, CreateVerificationListArgs, VerificationListArgs, VerificationListIdArgs, VerificationListResultsArgs, VerificationListsArgs } from './list.inputs.js';
import { VerificationListService } from './list.service.js';
import { EmailVerificationListType, VerificationListMessage, VerificationListResultsPage, VerificationListsPage } from './list.type.js';
import { WHOLE_ACCOUNT } from '../../core/scopes.js';

const svc = (ctx: Ctx) => new VerificationListService(ctx.em, ctx.services);

@Resolver()
export class VerificationListResolver {
  @Authorized(['email_verification_read', WHOLE_ACCOUNT])
  @Query(() => VerificationListsPage, { description: 'The account\'s verification lists, newest first.' })
  async email_verification_lists(@Context() ctx: Ctx, @Args() args: VerificationListsArgs): Promise<VerificationListsPage> {
    return svc(ctx).list(caller(ctx), args);
  }

  @Authorized(['email_verification_read', WHOLE_ACCOUNT])
  @Query(() => EmailVerificationListType, { description: 'One list; with detailed=true its addresses are paged in `emails`.' })
  async email_verification_list(@Context() ctx: Ctx, @Args() args: VerificationListArgs): Promise<EmailVerificationListType> {
    return svc(ctx).get(caller(ctx), args);
  }

  @Authorized(['email_verification_read', WHOLE_ACCOUNT])
  @Query(() => VerificationListResultsPage, { description: 'The list\'s addresses with their results (null until verified).' })
  async email_verification_list_results(@Context() ctx: Ctx, @Args() args: VerificationListResultsArgs): Promise<VerificationListResultsPage> {
    return svc(ctx).results(caller(ctx), args);
  }

  @Authorized(['email_verification_full', WHOLE_ACCOUNT])
  @Mutation(() => EmailVerificationListType, { description: 'Stores a list in status created (or uploading, with uploading: true); start it with verify_email_verification_list.' })
  async create_email_verification_list(@Context() ctx: Ctx, @Args() args: CreateVerificationListArgs): Promise<EmailVerificationListType> {
    return svc(ctx).create(caller(ctx), args);
  }

  @Authorized(['email_verification_full', WHOLE_ACCOUNT])
  @Mutation(() => EmailVerificationListType, { description: 'Adds a chunk of addresses (up to 10,000) to a list created with uploading: true.' })
  async add_email_verification_list_emails(@Context() ctx: Ctx, @Args() args: AddVerificationListEmailsArgs): Promise<EmailVerificationListType> {
    return svc(ctx).addEmails(caller(ctx), args);
  }

  @Authorized(['email_verification_full', WHOLE_ACCOUNT])
  @Mutation(() => EmailVerificationListType, { description: 'Ends the upload of an uploading list: it moves to created, ready to start.' })
  async finish_email_verification_list_upload(@Context() ctx: Ctx, @Args() { email_verification_id }: VerificationListIdArgs): Promise<EmailVerificationListType> {
    return svc(ctx).finishUpload(caller(ctx), email_verification_id);
  }

  @Authorized(['email_verification_full', WHOLE_ACCOUNT])
  @Mutation(() => VerificationListMessage, { description: 'Starts (reserving one credit per address; failed results are refunded) or resumes a paused list.' })
  async verify_email_verification_list(@Context() ctx: Ctx, @Args() { email_verification_id }: VerificationListIdArgs): Promise<VerificationListMessage> {
    return { message: await svc(ctx).start(caller(ctx), email_verification_id) };
  }

  @Authorized(['email_verification_full', WHOLE_ACCOUNT])
  @Mutation(() => EmailVerificationListType, { description: 'Pauses a verifying list; verify_email_verification_list resumes it.' })
  async pause_email_verification_list(@Context() ctx: Ctx, @Args() { email_verification_id }: VerificationListIdArgs): Promise<EmailVerificationListType> {
    return svc(ctx).pause(caller(ctx), email_verification_id);
  }

  @Authorized(['email_verification_full', WHOLE_ACCOUNT])
  @Mutation(() => EmailVerificationListType, { description: 'Cancels a list; credits of addresses not verified are refunded.' })
  async cancel_email_verification_list(@Context() ctx: Ctx, @Args() { email_verification_id }: VerificationListIdArgs): Promise<EmailVerificationListType> {
    return svc(ctx).cancel(caller(ctx), email_verification_id);
  }
}
