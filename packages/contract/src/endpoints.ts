import { internalAccountEndpoints } from './accounts.js';
import { configEndpoints } from './config.js';
import { controlPlaneEndpoints } from './control-plane.js';
import { customerEndpoints } from './customers.js';

/** Every operation of the API, by operationId: the engine serves these and the OpenAPI document describes them. */
export const endpoints = {
  ...customerEndpoints,
  ...internalAccountEndpoints,
  ...configEndpoints,
  ...controlPlaneEndpoints,
} as const;
export type Endpoints = typeof endpoints;
