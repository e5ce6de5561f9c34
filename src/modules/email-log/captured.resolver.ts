import { Arg, Args, Authorized, Ctx as Context, Field, ID, ObjectType, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { PageArgs, PageMeta } from '../../graphql/pagination.js';
import { IsoTimestamp } from '../../graphql/scalars.js';
import { CapturedEmailService } from './captured.service.js';
import { SandboxMailService } from './sandbox-mail.service.js';

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

@ObjectType({ description: 'Mail the service wrote about the account (an invitation, an address to confirm, a notice) that the capture transport kept.' })
export class SandboxMail {
  @Field(() => ID) id!: string;
  @Field({ description: 'invite, identity_confirmation, inbound_forward_confirmation, webhook_failing or blocklist_listed' }) kind!: string;
  @Field() from!: string;
  @Field() to!: string;
  @Field() subject!: string;
  @Field(() => IsoTimestamp) created_at!: Date;
}

@ObjectType()
export class SandboxMailDetail extends SandboxMail {
  @Field() text!: string;
  @Field(() => String, { nullable: true }) html!: string | null;
}

@ObjectType()
export class SandboxMailPage {
  @Field(() => [SandboxMail]) data!: SandboxMail[];
  @Field(() => PageMeta) meta!: PageMeta;
}

/** Scopes under which some kind of the service's own mail is shown (sandbox-mail.service.ts READERS decides which). */
const SANDBOX_MAIL_SCOPES = ['users_full', 'sender_identity_full', 'inbounds_full', 'webhooks_full', 'blocklist_monitoring_full'];

/** The sandbox's inbox: like the email log, it is activity data (`activity_read`). */
@Resolver()
export class CapturedEmailResolver {
  @Authorized('activity_read')
  @Query(() => CapturedEmailPage, { description: 'Emails the capture transport kept, newest first (GET /v1/captured-emails).' })
  async captured_emails(@Context() ctx: Ctx, @Args() args: PageArgs): Promise<CapturedEmailPage> {
    const { rows, meta } = await new CapturedEmailService(ctx.em).list(caller(ctx), args);
    return { data: rows, meta };
  }

  @Authorized(...SANDBOX_MAIL_SCOPES)
  @Query(() => SandboxMailPage, { description: 'Mail the service wrote about the account that the capture transport kept, newest first, of the kinds the caller may act on (GraphQL only).' })
  async sandbox_mails(@Context() ctx: Ctx, @Args() args: PageArgs): Promise<SandboxMailPage> {
    const { rows, meta } = await new SandboxMailService(ctx.em).list(caller(ctx), args);
    return { data: rows, meta };
  }

  @Authorized(...SANDBOX_MAIL_SCOPES)
  @Query(() => SandboxMailDetail, { description: 'One of sandbox_mails with its content (GraphQL only).' })
  sandbox_mail(@Context() ctx: Ctx, @Arg('mail_id', () => ID) id: string): Promise<SandboxMailDetail> {
    return new SandboxMailService(ctx.em).get(caller(ctx), id);
  }
}
