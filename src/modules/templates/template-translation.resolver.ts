import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { TemplateTranslationService } from './template-translation.service.js';
import {
  CreateTemplateTranslationArgs,
  TemplateTranslationArgs,
  TemplateTranslationListArgs,
  UpdateTemplateTranslationArgs,
} from './template-translation.inputs.js';
import { TemplateTranslationType, toTemplateTranslation } from './template-translation.type.js';

const svc = (ctx: Ctx) => new TemplateTranslationService(ctx.em);

// As templates: SPEC.md names only templates_full, reads included.
@Resolver()
export class TemplateTranslationResolver {
  @Authorized('templates_full')
  @Query(() => [TemplateTranslationType], { description: 'The template\'s translations, by language.' })
  async template_translations(@Context() ctx: Ctx, @Args() { template_id }: TemplateTranslationListArgs): Promise<TemplateTranslationType[]> {
    return (await svc(ctx).list(caller(ctx), template_id)).map(toTemplateTranslation);
  }

  @Authorized('templates_full')
  @Query(() => TemplateTranslationType)
  async template_translation(@Context() ctx: Ctx, @Args() args: TemplateTranslationArgs): Promise<TemplateTranslationType> {
    return toTemplateTranslation(await svc(ctx).get(caller(ctx), args));
  }

  @Authorized('templates_full')
  @Mutation(() => TemplateTranslationType, { description: 'One translation per language; sends naming the language use it.' })
  async create_template_translation(@Context() ctx: Ctx, @Args() args: CreateTemplateTranslationArgs): Promise<TemplateTranslationType> {
    return toTemplateTranslation(await svc(ctx).create(caller(ctx), args));
  }

  @Authorized('templates_full')
  @Mutation(() => TemplateTranslationType)
  async update_template_translation(@Context() ctx: Ctx, @Args() args: UpdateTemplateTranslationArgs): Promise<TemplateTranslationType> {
    return toTemplateTranslation(await svc(ctx).update(caller(ctx), args));
  }

  @Authorized('templates_full')
  @Mutation(() => Boolean, { description: 'Sends naming the language get the template\'s own content again.' })
  async delete_template_translation(@Context() ctx: Ctx, @Args() args: TemplateTranslationArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), args);
  }
}
