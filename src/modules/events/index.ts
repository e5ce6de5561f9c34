import type { ModuleManifest } from '../module.js';
import { DomainEvent, MaintenanceWindow } from './domain-event.entity.js';

export const eventsModule: ModuleManifest = {
  name: 'events',
  entities: [DomainEvent, MaintenanceWindow],
};
