import { ArgsType, Field, ID } from 'type-graphql';
import { PageArgs } from '../../graphql/pagination.js';
import { EachMaxLen, Email, MaxItems, MaxLen } from '../../graphql/validation.js';

@ArgsType()
export class TemplateListArgs extends PageArgs {
  @Field(() => ID, { nullable: true }) domain_id?: string | null;
}

@ArgsType()
export class TemplateIdArgs {
  @Field(() => ID) template_id!: string;
}

/** The fields create and update share; each is optional on update. */
@ArgsType()
export class TemplateFieldsArgs {
  @Field(() => String, { nullable: true }) @MaxLen(50) name?: string | null;
  @Field(() => String, { nullable: true, description: 'Required unless auto_generate is true.' }) text?: string | null;
  @Field(() => ID, { nullable: true }) domain_id?: string | null;
  @Field(() => [String], { nullable: true, description: 'Category ids of the account, all kept in this order; the first that exists is the answer\'s category.' })
  categories?: string[] | null;
  @Field(() => [String], { nullable: true }) @MaxItems(5) @EachMaxLen(191) tags?: string[] | null;
  @Field(() => Boolean, { nullable: true, description: 'Generate text from html.' }) auto_generate?: boolean | null;
  @Field(() => String, { nullable: true, description: 'Default subject of sends.' }) @MaxLen(998) subject?: string | null;
  @Field(() => String, { nullable: true }) @MaxLen(320) @Email() from_email?: string | null;
  @Field(() => String, { nullable: true }) @MaxLen(191) from_name?: string | null;
}

@ArgsType()
export class CreateTemplateArgs extends TemplateFieldsArgs {
  @Field() html!: string;
}

@ArgsType()
export class UpdateTemplateArgs extends TemplateFieldsArgs {
  @Field(() => ID) template_id!: string;
  @Field(() => String, { nullable: true }) html?: string | null;
}

@ArgsType()
export class TemplateCategoryListArgs extends PageArgs {}

@ArgsType()
export class CreateTemplateCategoryArgs {
  @Field() @MaxLen(50) name!: string;
}

@ArgsType()
export class TemplateCategoryIdArgs {
  @Field(() => ID) category_id!: string;
}
