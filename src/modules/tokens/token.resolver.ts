import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { CreateTokenArgs, TokenIdArgs, TokenListArgs, TokenSettingsArgs, UpdateTokenArgs } from './token.inputs.js';
import { TokenService, tokenTopic, type TokenEventPayload } from './token.service.js';
import { toToken } from './token.mapper.js';
import { CreatedToken, Token, TokenEvent, TokenPage, Whoami, toCreatedToken } from './token.type.js';
import { checkedSubscription, eventOf } from '../../graphql/subscriptions.js';
import type { Live } from '../../graphql/live-queue.js';
import { domainsOf } from '../../core/actor.js';

const svc = (ctx: Ctx) => new TokenService(ctx.em, ctx.services);

@Resolver()
export class TokenResolver {
  @Authorized()
  @Query(() => Whoami)
  whoami(@Context() ctx: Ctx): Whoami {
    const auth = caller(ctx);
    const domains = domainsOf(auth);
    return { account_id: auth.accountId, token_id: auth.tokenId, scopes: [...auth.scopes], domain_id: auth.domainId, domain_ids: domains ? [...domains] : null };
  }

  @Authorized('tokens_full')
  @Query(() => [Token], { description: 'The account\'s API tokens, newest first.' })
  async tokens(@Context() ctx: Ctx, @Args() args: TokenListArgs): Promise<Token[]> {
    return (await svc(ctx).list(caller(ctx), args)).map(toToken);
  }

  @Authorized('tokens_full')
  @Query(() => TokenPage, { description: 'The account\'s API tokens, newest first, with the full pager (GET /v1/token).' })
  async tokens_page(@Context() ctx: Ctx, @Args() args: TokenListArgs): Promise<TokenPage> {
    const { rows, meta } = await svc(ctx).page(caller(ctx), args);
    return { data: rows.map(toToken), meta };
  }

  @Authorized('tokens_full')
  @Query(() => Token)
  async token(@Context() ctx: Ctx, @Args() { token_id }: TokenIdArgs): Promise<Token> {
    return toToken(await svc(ctx).get(caller(ctx), token_id));
  }

  @Authorized('tokens_full')
  @Mutation(() => CreatedToken, { description: 'The secret (accessToken) is returned this once.' })
  async create_token(@Context() ctx: Ctx, @Args() args: CreateTokenArgs): Promise<CreatedToken> {
    const { token, secret } = await svc(ctx).create(caller(ctx), args);
    return toCreatedToken(token, secret);
  }

  @Authorized('tokens_full')
  @Mutation(() => Token, { description: 'Rename, pause or unpause.' })
  async update_token(@Context() ctx: Ctx, @Args() args: UpdateTokenArgs): Promise<Token> {
    return toToken(await svc(ctx).update(caller(ctx), args));
  }

  @Authorized('tokens_full')
  @Mutation(() => Token, { description: 'Pause or unpause.' })
  async update_token_settings(@Context() ctx: Ctx, @Args() args: TokenSettingsArgs): Promise<Token> {
    return toToken(await svc(ctx).update(caller(ctx), { ...args, name: null }));
  }

  @Authorized('tokens_full')
  @Mutation(() => Boolean)
  async delete_token(@Context() ctx: Ctx, @Args() { token_id }: TokenIdArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), token_id);
  }

  @Authorized('tokens_full')
  @Subscription(() => TokenEvent, {
    description: 'Token changes in the caller\'s account, live (GraphQL over SSE at /graphql/stream).',
    subscribe: checkedSubscription<unknown, TokenEventPayload>({
      topic: (auth) => tokenTopic(auth.accountId),
      // A domain-limited token hears only about tokens of its domain, as its token list shows.
      hears: (payload, _args, auth) => {
        const own = domainsOf(auth);
        return !own || (!!payload.domain_id && own.includes(payload.domain_id));
      },
    }),
  })
  token_events(@Root() root: Live<TokenEventPayload>, @Context() ctx: Ctx): TokenEvent {
    const event = eventOf(root, ctx);
    return { action: event.action, token: event.token };
  }
}
