import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { TemplateCategoryService } from './template-category.service.js';
import {
  CreateTemplateArgs,
  CreateTemplateCategoryArgs,
  TemplateCategoryIdArgs,
  TemplateCategoryListArgs,
  TemplateIdArgs,
  TemplateListArgs,
  UpdateTemplateArgs,
} from './template.inputs.js';
import { NO_NUMBERS, toTemplate, toTemplateCategory, toTemplateListItem } from './template.mapper.js';
import { TemplateService } from './template.service.js';
import { TemplateCategoryType, TemplatePage, TemplateType } from './template.type.js';
import { WHOLE_ACCOUNT } from '../../core/scopes.js';

const svc = (ctx: Ctx) => new TemplateService(ctx.em);
const categories = (ctx: Ctx) => new TemplateCategoryService(ctx.em);

// SPEC.md names only templates_full for templates, reads included.
@Resolver()
export class TemplateResolver {
  @Authorized('templates_full')
  @Query(() => TemplatePage, { description: 'The account\'s templates, newest first.' })
  async templates(@Context() ctx: Ctx, @Args() args: TemplateListArgs): Promise<TemplatePage> {
    const { rows, meta } = await svc(ctx).list(caller(ctx), args);
    return { data: rows.map(toTemplateListItem), meta };
  }

  @Authorized('templates_full')
  @Query(() => TemplateType)
  async template(@Context() ctx: Ctx, @Args() { template_id }: TemplateIdArgs): Promise<TemplateType> {
    const service = svc(ctx);
    const auth = caller(ctx);
    const template = await service.get(auth, template_id);
    return toTemplate(template, await service.numbers(auth, template), await service.categories(auth, template));
  }

  @Authorized('templates_full')
  @Mutation(() => TemplateType, { description: 'The answer has category and domain null, as SPEC.md says.' })
  async create_template(@Context() ctx: Ctx, @Args() args: CreateTemplateArgs): Promise<TemplateType> {
    const service = svc(ctx);
    const auth = caller(ctx);
    const template = await service.create(auth, args);
    return toTemplate(template, NO_NUMBERS, await service.categories(auth, template), { created: true });
  }

  @Authorized('templates_full')
  @Mutation(() => TemplateType, { description: 'Only templates created through the API can be updated.' })
  async update_template(@Context() ctx: Ctx, @Args() args: UpdateTemplateArgs): Promise<TemplateType> {
    const service = svc(ctx);
    const auth = caller(ctx);
    const template = await service.update(auth, args);
    return toTemplate(template, await service.numbers(auth, template), await service.categories(auth, template));
  }

  @Authorized('templates_full')
  @Mutation(() => Boolean)
  async delete_template(@Context() ctx: Ctx, @Args() { template_id }: TemplateIdArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), template_id);
  }

  @Authorized(['templates_full', WHOLE_ACCOUNT])
  @Query(() => [TemplateCategoryType], { description: 'The account\'s template categories, by name.' })
  async template_categories(@Context() ctx: Ctx, @Args() args: TemplateCategoryListArgs): Promise<TemplateCategoryType[]> {
    return (await categories(ctx).list(caller(ctx), args)).map(toTemplateCategory);
  }

  @Authorized(['templates_full', WHOLE_ACCOUNT])
  @Mutation(() => TemplateCategoryType)
  async create_template_category(@Context() ctx: Ctx, @Args() args: CreateTemplateCategoryArgs): Promise<TemplateCategoryType> {
    return toTemplateCategory(await categories(ctx).create(caller(ctx), args));
  }

  @Authorized(['templates_full', WHOLE_ACCOUNT])
  @Mutation(() => Boolean, { description: 'Its templates stay, without a category.' })
  async delete_template_category(@Context() ctx: Ctx, @Args() { category_id }: TemplateCategoryIdArgs): Promise<boolean> {
    return categories(ctx).remove(caller(ctx), category_id);
  }
}
