import { beneficialOwnerEndpoints as e } from '@railyard/contract';
import { bind } from '../http/app.js';
import * as owners from './owners.js';

/** HTTP bindings of the beneficial-owner endpoints. */
export const beneficialOwnerRoutes = [
  bind(e.createBeneficialOwner, ({ tenant, body }) => owners.createOwner(tenant, body)),
  bind(e.listBeneficialOwners, ({ tenant, query }) => owners.listOwners(tenant, query)),
  bind(e.getBeneficialOwner, ({ tenant, params }) => owners.findOwner(tenant, params.beneficialOwnerId)),
  bind(e.updateBeneficialOwner, ({ tenant, params, body }) => owners.updateOwner(tenant, params.beneficialOwnerId, body)),
];
