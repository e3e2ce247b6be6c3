import { tokenEndpoints as e } from '@railyard/contract';
import { bind, type Binding } from '../http/app.js';
import { createToken, deleteToken, findToken, listTokens } from './tokens.js';

/** HTTP bindings of API tokens (REFERENCE §19). */
export const tokenRoutes: Binding[] = [
  bind(e.createToken, ({ tenant, body, permissions }) => createToken(tenant, body, permissions)),
  bind(e.listTokens, ({ tenant, query }) => listTokens(tenant, query)),
  bind(e.getTokenById, ({ tenant, params }) => findToken(tenant, params.tokenId)),
  bind(e.deleteTokenById, ({ tenant, params }) => deleteToken(tenant, params.tokenId)),
];
