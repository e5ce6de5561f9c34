import { Resolver } from 'type-graphql';

@Resolver()
export class TemplateResolver {}
