import { Args, Authorized, Ctx as Context, Field, ID, ObjectType, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { PageArgs, PageMeta } from '../../graphql/pagination.js';
import { IsoTimestamp } from '../../graphql/scalars.js';
import { CapturedEmailService } from './captured.service.js';

@ObjectType({ description: 'An email the capture transport kept instead of sending (MAIL_TRANSPORT=capture).' })
export class CapturedEmail {
  @Field(() => ID) id!: string;
  @Field(() => ID, { description: 'The email in the log: GET /v1/email/{email_id} shows its content.' }) email_id!: string;
  @Field(() => ID) message_id!: string;
  @Field(() => ID) domain_id!: string;
  @Field() from!: string;
  @Field() to!: string;
  @Field() subject!: string;
  @Field(() => IsoTimestamp) created_at!: Date;
}

@ObjectType()
export class CapturedEmailPage {
  @Field(() => [CapturedEmail]) data!: CapturedEmail[];
  @Field(() => PageMeta) meta!: PageMeta;
}

/** The sandbox's inbox: like the email log, it is activity data (`activity_read`). */
@Resolver()
export class CapturedEmailResolver {
  @Authorized('activity_read')
  @Query(() => CapturedEmailPage, { description: 'Emails the capture transport kept, newest first (GET /v1/captured-emails).' })
  async captured_emails(@Context() ctx: Ctx, @Args() args: PageArgs): Promise<CapturedEmailPage> {
    const { rows, meta } = await new CapturedEmailService(ctx.em).list(caller(ctx), args);
    return { data: rows, meta };
  }
}
