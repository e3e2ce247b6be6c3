import { customerEndpoints as e } from '@railyard/contract';
import { bind } from '../http/app.js';
import { signedAnswer, signedRequestOf } from '../http/signed.js';
import * as customers from './customers.js';
import { updateCustomerTiedToWallets } from '../auth/customer-email.js';

/** HTTP bindings of the customer endpoints: parse, call the domain, return. */
export const customerRoutes = [
  bind(e.createCustomer, ({ tenant, body }) => customers.createCustomer(tenant, body), ({ tenant, body }) => customers.createChecks(tenant, body)),
  bind(e.listCustomers, ({ tenant, query }) => customers.listCustomers(tenant, query)),
  bind(e.getEndUserTerms, () => customers.currentEndUserTerms()),
  bind(e.getCustomer, ({ tenant, params }) => customers.retrieveCustomer(tenant, params.customerId)),
  bind(
    e.updateCustomer,
    // A change of an email that embedded-wallet credentials are tied to is a signed action (auth area).
    ({ tenant, params, body, request, signable }) => signedAnswer(updateCustomerTiedToWallets(tenant, params.customerId, body, signedRequestOf(request, signable))),
    ({ tenant, params, body }) => customers.updateChecks(tenant, params.customerId ?? '', body),
  ),
  bind(e.deleteCustomer, ({ tenant, params }) => customers.deleteCustomer(tenant, params.customerId)),
];
