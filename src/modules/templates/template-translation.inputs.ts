import { ArgsType, Field, ID } from 'type-graphql';
import { MaxLen } from '../../graphql/validation.js';

@ArgsType()
export class TemplateTranslationListArgs {
  @Field(() => ID) template_id!: string;
}

@ArgsType()
export class TemplateTranslationArgs {
  @Field(() => ID) template_id!: string;
  @Field({ description: 'One of de, en, es, fr, it, lt, nl, pl, pt-BR.' }) language!: string;
}

/** The content of a translation; each field is optional on update. */
@ArgsType()
export class TemplateTranslationFieldsArgs extends TemplateTranslationArgs {
  @Field(() => String, { nullable: true, description: 'Subject of sends in this language that give none; the template\'s default when null.' })
  @MaxLen(998)
  subject?: string | null;
  @Field(() => String, { nullable: true, description: 'Required unless auto_generate is true.' }) text?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'Generate text from html.' }) auto_generate?: boolean | null;
}

@ArgsType()
export class CreateTemplateTranslationArgs extends TemplateTranslationFieldsArgs {
  @Field() html!: string;
}

@ArgsType()
export class UpdateTemplateTranslationArgs extends TemplateTranslationFieldsArgs {
  @Field(() => String, { nullable: true }) html?: string | null;
}
