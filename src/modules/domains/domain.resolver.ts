import { Args, Authorized, Ctx as Context, Mutation, Query, Resolver } from 'type-graphql';
import { caller, type Ctx } from '../../graphql/context.js';
import { expectedRecords } from './dns-check.js';
import { CreateDomainArgs, DomainIdArgs, DomainListArgs, DomainSettingsArgs } from './domain.inputs.js';
import { toCreatedDomain, toDomain, toDomainListItem } from './domain.mapper.js';
import { DomainService, notQueuedOf } from './domain.service.js';
import {
  CreatedDomain,
  DomainDnsRecords,
  DomainPage,
  DomainType,
  DomainVerification,
} from './domain.type.js';

const svc = (ctx: Ctx) => new DomainService(ctx.em, ctx.services);

@Resolver()
export class DomainResolver {
  @Authorized('domains_read')
  @Query(() => DomainPage)
  async domains(@Context() ctx: Ctx, @Args() args: DomainListArgs): Promise<DomainPage> {
    const { rows, meta } = await svc(ctx).list(caller(ctx), args);
    return { data: rows.map((d) => toDomainListItem(d, d.not_queued)), meta };
  }

  @Authorized('domains_read')
  @Query(() => DomainType)
  async domain(@Context() ctx: Ctx, @Args() { domain_id }: DomainIdArgs): Promise<DomainType> {
    const domain = await svc(ctx).get(caller(ctx), domain_id);
    return toDomain(domain, await notQueuedOf(ctx.em, domain.id));
  }

  @Authorized('domains_read')
  @Query(() => DomainDnsRecords, { description: 'The DNS records to publish for the domain.' })
  async domain_dns_records(@Context() ctx: Ctx, @Args() { domain_id }: DomainIdArgs): Promise<DomainDnsRecords> {
    return expectedRecords(await svc(ctx).get(caller(ctx), domain_id), ctx.services.config);
  }

  @Authorized('domains_full')
  @Mutation(() => CreatedDomain)
  async create_domain(@Context() ctx: Ctx, @Args() args: CreateDomainArgs): Promise<CreatedDomain> {
    return toCreatedDomain(await svc(ctx).create(caller(ctx), args));
  }

  @Authorized('domains_full')
  @Mutation(() => DomainType, { description: 'Changes any subset of domain_settings.' })
  async update_domain_settings(@Context() ctx: Ctx, @Args() args: DomainSettingsArgs): Promise<DomainType> {
    const domain = await svc(ctx).updateSettings(caller(ctx), args);
    return toDomain(domain, await notQueuedOf(ctx.em, domain.id));
  }

  @Authorized('domains_full')
  @Mutation(() => Boolean)
  async delete_domain(@Context() ctx: Ctx, @Args() { domain_id }: DomainIdArgs): Promise<boolean> {
    return svc(ctx).remove(caller(ctx), domain_id);
  }

  @Authorized('domains_read')
  @Mutation(() => DomainVerification, { description: 'Queries DNS now and stores what it finds.' })
  async verify_domain(@Context() ctx: Ctx, @Args() { domain_id }: DomainIdArgs): Promise<DomainVerification> {
    return svc(ctx).verify(caller(ctx), domain_id);
  }
}
