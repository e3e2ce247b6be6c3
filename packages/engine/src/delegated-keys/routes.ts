import { delegatedKeyEndpoints as e } from '@railyard/contract';
import { bind, type Binding } from '../http/app.js';
import { signedAnswer, signedRequestOf } from '../http/signed.js';
import { createDelegatedKey, getDelegatedKey, listDelegatedKeys, revokeDelegatedKey } from './delegated-keys.js';

/** HTTP bindings of delegated keys (card funding from embedded wallets). */
export const delegatedKeyRoutes: Binding[] = [
  bind(e.createDelegatedKey, ({ tenant, body, request, signable }) => signedAnswer(createDelegatedKey(tenant, body, signedRequestOf(request, signable)))),
  bind(e.listDelegatedKeys, ({ tenant, query }) => listDelegatedKeys(tenant, query)),
  bind(e.getDelegatedKeyById, ({ tenant, params }) => getDelegatedKey(tenant, params.delegatedKeyId)),
  bind(e.revokeDelegatedKey, ({ tenant, params }) => revokeDelegatedKey(tenant, params.delegatedKeyId)),
];
