import type { ModuleManifest } from '../module.js';
import { registerTrackingRoutes } from './tracking.routes.js';

export const trackingModule: ModuleManifest = {
  name: 'tracking',
  routes: registerTrackingRoutes,
};
