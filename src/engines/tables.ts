import type { EntityClass } from '@mikro-orm/core';
import { DeliveryLease } from './delivery/delivery-lease.entity.js';
import { WebhookDispatchLease } from './webhooks/dispatch-lease.entity.js';

/** The tables of the engines' own machinery (leases), mapped by every role's ORM with the modules'. */
export const engineTables: readonly EntityClass<object>[] = [DeliveryLease, WebhookDispatchLease];
