import { Arg, Authorized, Ctx as Context, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import type { Ctx } from '../../graphql/context.js';
import { PLANS, type Plan } from '../accounts/account.entity.js';
import { AccountService } from '../accounts/account.service.js';
import { AccountType, toAccount } from '../accounts/account.type.js';
import { SmsNumberType, toSmsNumber } from '../sms-numbers/sms-number.type.js';
import { toCreatedToken } from '../tokens/token.type.js';
import { OperatorService } from './operator.service.js';
import { CapturedMailType, CreatedAccount, MaintenanceWindowType } from './operator.type.js';
import { errors, msg } from '../../core/errors.js';
import { OPERATOR } from '../../core/scopes.js';

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
    const { account, token, secret } = await new OperatorService(ctx.em).createAccount({
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
    return (await new OperatorService(ctx.em).accounts()).map(toAccount);
  }

  @Authorized(OPERATOR)
  @Mutation(() => AccountType)
  async operator_set_plan(
    @Context() ctx: Ctx,
    @Arg('account_id', () => ID) account_id: string,
    @Arg('plan') plan: string,
  ): Promise<AccountType> {
    if (!PLANS.includes(plan as Plan)) throw errors.invalid('plan', msg.in('plan'));
    return toAccount(await new OperatorService(ctx.em).setPlan(account_id, plan as Plan));
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
    return toSmsNumber(await new OperatorService(ctx.em).assignSmsNumber(account_id, telephone_number));
  }

  @Authorized(OPERATOR)
  @Mutation(() => MaintenanceWindowType, { description: 'Records maintenance.start for every account.' })
  async operator_start_maintenance(
    @Context() ctx: Ctx,
    @Arg('note', () => String, { nullable: true }) note: string | null,
  ): Promise<MaintenanceWindowType> {
    return new OperatorService(ctx.em).startMaintenance(note);
  }

  @Authorized(OPERATOR)
  @Mutation(() => MaintenanceWindowType, { description: 'Records maintenance.end for every account.' })
  async operator_end_maintenance(@Context() ctx: Ctx, @Arg('id', () => ID) id: string): Promise<MaintenanceWindowType> {
    return new OperatorService(ctx.em).endMaintenance(id);
  }

  @Authorized(OPERATOR)
  @Query(() => [CapturedMailType], { description: 'Mail kept by the capture transport, newest first.' })
  async operator_captured_mail(
    @Context() ctx: Ctx,
    @Arg('to', () => String, { nullable: true }) to: string | null,
    @Arg('limit', () => Int, { defaultValue: 50 }) limit: number,
  ): Promise<CapturedMailType[]> {
    return new OperatorService(ctx.em).capturedMail(to, limit);
  }
}
