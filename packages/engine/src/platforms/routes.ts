import { configEndpoints as e } from '@railyard/contract';
import { bind } from '../http/app.js';
import { platformConfig, updatePlatformConfig } from './config.js';

/** HTTP bindings of the platform configuration. */
export const platformRoutes = [
  bind(e.getConfig, ({ tenant }) => platformConfig(tenant)),
  bind(e.updateConfig, ({ tenant, body }) => updatePlatformConfig(tenant, body)),
];
