import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import {
  AddBlocklistArgs,
  AddOnHoldArgs,
  AddSuppressionArgs,
  BlocklistListArgs,
  DeleteBlocklistArgs,
  DeleteSuppressionArgs,
  SuppressionListArgs,
} from './suppression.inputs.js';
import type { RecipientList } from './suppression.entity.js';
import { SuppressionService } from './suppression.service.js';
import { BlocklistEntry, OnHoldEntry, SuppressionEntry, toBlocklistEntry, toOnHoldEntry, toSuppressionEntry } from './suppression.type.js';

const svc = (ctx: Ctx) => new SuppressionService(ctx.em);
const list = async (ctx: Ctx, kind: RecipientList, args: SuppressionListArgs) =>
  (await svc(ctx).list(caller(ctx), kind, args)).map(toSuppressionEntry);
const add = async (ctx: Ctx, kind: RecipientList, args: AddSuppressionArgs) =>
  (await svc(ctx).addRecipients(caller(ctx), kind, args)).map(toSuppressionEntry);
const remove = (ctx: Ctx, kind: RecipientList, args: DeleteSuppressionArgs) => svc(ctx).remove(caller(ctx), kind, args);

/** The five suppression lists: one field per list and operation, all on one service. */
@Resolver()
export class SuppressionResolver {
  @Authorized('suppressions_read')
  @Query(() => [BlocklistEntry], { description: 'Blocklist entries, newest first.' })
  async blocklist(@Context() ctx: Ctx, @Args() args: BlocklistListArgs): Promise<BlocklistEntry[]> {
    return (await svc(ctx).list(caller(ctx), 'blocklist', args)).map(toBlocklistEntry);
  }

  @Authorized('suppressions_read')
  @Query(() => [SuppressionEntry], { description: 'Hard-bounced recipients, newest first.' })
  hard_bounces(@Context() ctx: Ctx, @Args() args: SuppressionListArgs): Promise<SuppressionEntry[]> {
    return list(ctx, 'hard_bounces', args);
  }

  @Authorized('suppressions_read')
  @Query(() => [SuppressionEntry], { description: 'Recipients who complained of spam, newest first.' })
  spam_complaints(@Context() ctx: Ctx, @Args() args: SuppressionListArgs): Promise<SuppressionEntry[]> {
    return list(ctx, 'spam_complaints', args);
  }

  @Authorized('suppressions_read')
  @Query(() => [SuppressionEntry], { description: 'Unsubscribed recipients, newest first.' })
  unsubscribes(@Context() ctx: Ctx, @Args() args: SuppressionListArgs): Promise<SuppressionEntry[]> {
    return list(ctx, 'unsubscribes', args);
  }

  @Authorized('suppressions_read')
  @Query(() => [OnHoldEntry], { description: 'Recipients on hold, newest first.' })
  async on_hold_list(@Context() ctx: Ctx, @Args() args: SuppressionListArgs): Promise<OnHoldEntry[]> {
    return (await svc(ctx).list(caller(ctx), 'on_hold', args)).map(toOnHoldEntry);
  }

  @Authorized('suppressions_full')
  @Mutation(() => [BlocklistEntry], { description: 'Entries added, or already there.' })
  async add_to_blocklist(@Context() ctx: Ctx, @Args() args: AddBlocklistArgs): Promise<BlocklistEntry[]> {
    return (await svc(ctx).addToBlocklist(caller(ctx), args)).map(toBlocklistEntry);
  }

  @Authorized('suppressions_full')
  @Mutation(() => [SuppressionEntry], { description: 'Entries added, or already there.' })
  add_hard_bounces(@Context() ctx: Ctx, @Args() args: AddSuppressionArgs): Promise<SuppressionEntry[]> {
    return add(ctx, 'hard_bounces', args);
  }

  @Authorized('suppressions_full')
  @Mutation(() => [SuppressionEntry], { description: 'Entries added, or already there.' })
  add_spam_complaints(@Context() ctx: Ctx, @Args() args: AddSuppressionArgs): Promise<SuppressionEntry[]> {
    return add(ctx, 'spam_complaints', args);
  }

  @Authorized('suppressions_full')
  @Mutation(() => [SuppressionEntry], { description: 'Entries added, or already there.' })
  add_unsubscribes(@Context() ctx: Ctx, @Args() args: AddSuppressionArgs): Promise<SuppressionEntry[]> {
    return add(ctx, 'unsubscribes', args);
  }

  @Authorized('suppressions_full')
  @Mutation(() => [OnHoldEntry], { description: 'Entries added, or already there (an expired hold starts anew).' })
  async add_on_hold_list(@Context() ctx: Ctx, @Args() args: AddOnHoldArgs): Promise<OnHoldEntry[]> {
    return (await svc(ctx).addRecipients(caller(ctx), 'on_hold', args)).map(toOnHoldEntry);
  }

  @Authorized('suppressions_full')
  @Mutation(() => Boolean)
  delete_from_blocklist(@Context() ctx: Ctx, @Args() args: DeleteBlocklistArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), 'blocklist', args);
  }

  @Authorized('suppressions_full')
  @Mutation(() => Boolean)
  delete_hard_bounces(@Context() ctx: Ctx, @Args() args: DeleteSuppressionArgs): Promise<boolean> {
    return remove(ctx, 'hard_bounces', args);
  }

  @Authorized('suppressions_full')
  @Mutation(() => Boolean)
  delete_spam_complaints(@Context() ctx: Ctx, @Args() args: DeleteSuppressionArgs): Promise<boolean> {
    return remove(ctx, 'spam_complaints', args);
  }

  @Authorized('suppressions_full')
  @Mutation(() => Boolean)
  delete_unsubscribes(@Context() ctx: Ctx, @Args() args: DeleteSuppressionArgs): Promise<boolean> {
    return remove(ctx, 'unsubscribes', args);
  }

  @Authorized('suppressions_full')
  @Mutation(() => Boolean)
  delete_on_hold_list(@Context() ctx: Ctx, @Args() args: DeleteSuppressionArgs): Promise<boolean> {
    return remove(ctx, 'on_hold', args);
  }
}
