import { Arg, Authorized, Ctx as Context, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../graphql/context.js';
import { IsoTimestamp } from '../../graphql/scalars.js';
import { CapturedMail } from '../mail/captured-mail.entity.js';
import { DomainEvent, MaintenanceWindow } from '../events/domain-event.entity.js';
import { SmsNumber } from '../sms-numbers/sms-number.entity.js';
import { SmsNumberType, toSmsNumber } from '../sms-numbers/sms-number.type.js';
import { toCreatedToken } from '../tokens/token.type.js';
import { Account, PLANS, type Plan } from './account.entity.js';
import { AccountService } from './account.service.js';
import { AccountType, CreatedAccount, toAccount } from './account.type.js';
import { takenIfDuplicate } from '../../db/unique.js';
import { errors, msg } from '../../core/errors.js';
import { OPERATOR } from '../../core/scopes.js';

@ObjectType()
class MaintenanceWindowType {
  @Field(() => ID) id!: string;
  @Field() note!: string;
  @Field(() => IsoTimestamp) started_at!: Date;
  @Field(() => IsoTimestamp, { nullable: true }) ended_at!: Date | null;
}

@ObjectType()
class CapturedMailType {
  @Field(() => ID) id!: string;
  @Field() to!: string;
  @Field() from!: string;
  @Field() subject!: string;
  @Field() text!: string;
  @Field(() => String, { nullable: true }) html!: string | null;
  @Field() kind!: string;
  @Field(() => IsoTimestamp) created_at!: Date;
}

const E164 = /^\+[1-9]\d{6,14}$/;

/**
 * The operator API: for whoever runs the instance, authorized by OPERATOR_TOKEN, on GraphQL only
 * (rest-mapping never routes these fields to /v1).
 */
@Resolver()
export class OperatorResolver {
  @Authorized(OPERATOR)
  @Mutation(() => CreatedAccount)
  async operator_create_account(
    @Context() ctx: Ctx,
    @Arg('name') name: string,
    @Arg('admin_email', () => String, { nullable: true }) admin_email: string | null,
  ): Promise<CreatedAccount> {
    if (!name.trim() || name.length > 191) throw errors.invalid('name', msg.maxString('name', 191));
    const { DEFAULT_PLAN, DEFAULT_VERIFICATION_CREDITS } = ctx.services.config;
    const { account, token, secret } = await new AccountService(ctx.em).create({
      name: name.trim(),
      admin_email,
      plan: DEFAULT_PLAN,
      verification_credits: DEFAULT_VERIFICATION_CREDITS,
    });
    return { account: toAccount(account), token: toCreatedToken(token, secret) };
  }

  @Authorized(OPERATOR)
  @Query(() => [AccountType])
  async operator_accounts(@Context() ctx: Ctx): Promise<AccountType[]> {
    return (await ctx.em.find(Account, {}, { orderBy: { created_at: 'asc' } })).map(toAccount);
  }

  @Authorized(OPERATOR)
  @Mutation(() => AccountType)
  async operator_set_plan(
    @Context() ctx: Ctx,
    @Arg('account_id', () => ID) account_id: string,
    @Arg('plan') plan: string,
  ): Promise<AccountType> {
    if (!PLANS.includes(plan as Plan)) throw errors.invalid('plan', msg.in('plan'));
    return toAccount(await new AccountService(ctx.em).setPlan(account_id, plan as Plan));
  }

  @Authorized(OPERATOR)
  @Mutation(() => AccountType)
  async operator_add_verification_credits(
    @Context() ctx: Ctx,
    @Arg('account_id', () => ID) account_id: string,
    @Arg('credits', () => Int) credits: number,
  ): Promise<AccountType> {
    if (credits < 1 || credits > 10_000_000) throw errors.invalid('credits', msg.min('credits', 1));
    return toAccount(await new AccountService(ctx.em).addCredits(account_id, credits));
  }

  @Authorized(OPERATOR)
  @Mutation(() => SmsNumberType, { description: 'Hands a provider-assigned number to an account.' })
  async operator_assign_sms_number(
    @Context() ctx: Ctx,
    @Arg('account_id', () => ID) account_id: string,
    @Arg('telephone_number') telephone_number: string,
  ): Promise<SmsNumberType> {
    if (!E164.test(telephone_number)) throw errors.invalid('telephone_number', msg.in('telephone_number'));
    const account = await new AccountService(ctx.em).get(account_id);
    const number = ctx.em.create(SmsNumber, { account, telephone_number } as never);
    // Two concurrent requests for one telephone number: the unique index decides.
    await takenIfDuplicate('telephone_number', () => ctx.em.flush());
    return toSmsNumber(number);
  }

  @Authorized(OPERATOR)
  @Mutation(() => MaintenanceWindowType, { description: 'Records maintenance.start for every account.' })
  async operator_start_maintenance(
    @Context() ctx: Ctx,
    @Arg('note', () => String, { nullable: true }) note: string | null,
  ): Promise<MaintenanceWindowType> {
    return ctx.em.transactional(async (em) => {
      const window = em.create(MaintenanceWindow, { note: (note ?? '').slice(0, 500) } as never);
      em.create(DomainEvent, { type: 'maintenance.start', payload: { maintenance_id: window.id } } as never);
      await em.flush();
      return window;
    });
  }

  @Authorized(OPERATOR)
  @Mutation(() => MaintenanceWindowType, { description: 'Records maintenance.end for every account.' })
  async operator_end_maintenance(@Context() ctx: Ctx, @Arg('id', () => ID) id: string): Promise<MaintenanceWindowType> {
    return ctx.em.transactional(async (em) => {
      const window = await em.findOne(MaintenanceWindow, { id });
      if (!window) throw errors.notFound();
      if (window.ended_at) throw errors.invalid('id', 'The maintenance window has already ended.');
      window.ended_at = new Date();
      em.create(DomainEvent, { type: 'maintenance.end', payload: { maintenance_id: window.id } } as never);
      await em.flush();
      return window;
    });
  }

  @Authorized(OPERATOR)
  @Query(() => [CapturedMailType], { description: 'Mail kept by the capture transport, newest first.' })
  async operator_captured_mail(
    @Context() ctx: Ctx,
    @Arg('to', () => String, { nullable: true }) to: string | null,
    @Arg('limit', () => Int, { defaultValue: 50 }) limit: number,
  ): Promise<CapturedMailType[]> {
    return ctx.em.find(CapturedMail, to ? { to } : {}, {
      orderBy: { created_at: 'desc' },
      limit: Math.min(Math.max(limit, 1), 500),
    });
  }
}
