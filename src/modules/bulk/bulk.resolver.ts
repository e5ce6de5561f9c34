import { Arg, Args, Authorized, Ctx as Context, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { JSONObject } from '../../graphql/scalars.js';
import { findOwned } from '../../db/scoped.js';
import { BulkEmail } from './bulk-email.entity.js';
import { acceptBulk, bulkEventData, listBulk } from './bulk.service.js';
import { PageArgs } from '../../graphql/pagination.js';
import { errors } from '../../core/errors.js';
import { domainsOf } from '../../core/actor.js';

@ObjectType('BulkEmailAccepted')
class BulkEmailAccepted {
  @Field()
  message!: string;

  @Field()
  bulk_email_id!: string;
}

@ObjectType('BulkEmail')
class BulkEmailType {
  @Field(() => ID)
  id!: string;

  @Field({ description: 'queued, processing or completed' })
  state!: string;

  @Field(() => Int)
  total_recipients_count!: number;

  @Field(() => Int)
  suppressed_recipients_count!: number;

  @Field(() => JSONObject, { nullable: true, description: '`message.<index>` → `{to: [{email, name, reasons}]}`' })
  suppressed_recipients!: Record<string, unknown> | null;

  @Field(() => Int)
  validation_errors_count!: number;

  @Field(() => JSONObject, { nullable: true, description: '`message.<index>.<field>` → messages, as a 422 of POST /v1/email' })
  validation_errors!: Record<string, unknown> | null;

  @Field(() => [String], { nullable: true })
  messages_id!: string[] | null;

  @Field()
  created_at!: Date;

  @Field()
  updated_at!: Date;
}

const toBulk = (b: BulkEmail): BulkEmailType => ({ ...bulkEventData(b), created_at: b.created_at, updated_at: b.updated_at });

@Resolver()
export class BulkResolver {
  @Authorized('email_full')
  @Mutation(() => BulkEmailAccepted, { description: 'Queues many sends at once (POST /v1/bulk-email); each item is a POST /v1/email body.' })
  async send_bulk_email(
    @Context() ctx: Ctx,
    @Arg('emails', () => [JSONObject]) emails: Record<string, unknown>[],
  ): Promise<BulkEmailAccepted> {
    if (!emails.length) throw errors.invalid('emails', 'The emails field is required.');
    const bulk = await acceptBulk(ctx.services, ctx.em, caller(ctx), emails);
    return { message: 'The bulk email is being processed.', bulk_email_id: bulk.id };
  }

  @Authorized('email_full')
  @Query(() => BulkEmailType)
  async bulk_email(@Context() ctx: Ctx, @Arg('bulk_email_id', () => ID) bulk_email_id: string): Promise<BulkEmailType> {
    const auth = caller(ctx);
    const bulk = await findOwned(ctx.em, BulkEmail, auth, { id: bulk_email_id });
    // A domain-limited caller sees the bulk sends made within its domains only.
    const own = domainsOf(auth);
    const made = bulk.token_domain_id ? [bulk.token_domain_id] : bulk.token_domain_ids;
    if (own && (!made?.length || made.some((id) => !own.includes(id)))) throw errors.notFound();
    return toBulk(bulk);
  }

  @Authorized('email_full')
  @Query(() => [BulkEmailType], { description: "The account's bulk requests, newest first, for the console (GraphQL only: SPEC.md has no such list)." })
  async bulk_emails(@Context() ctx: Ctx, @Args() args: PageArgs): Promise<BulkEmailType[]> {
    return (await listBulk(ctx.em, caller(ctx), args)).map(toBulk);
  }
}
