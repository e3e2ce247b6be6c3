import { verificationEndpoints as e } from '@railyard/contract';
import { bind } from '../http/app.js';
import * as verification from './verification.js';

/** HTTP bindings of the verification endpoints, and the operator's decision on the control plane. */
export const verificationRoutes = [
  bind(e.createVerification, ({ tenant, body }) => verification.submitVerification(tenant, body.customerId)),
  bind(e.listVerifications, ({ tenant, query }) => verification.listVerifications(tenant, query)),
  bind(e.getVerification, ({ tenant, params }) => verification.verificationView(verification.findVerification(tenant, params.verificationId))),
  bind(e.decideSandboxVerification, ({ tenant, params, body }) => verification.decideVerification(tenant, params.verificationId, body.decision)),
];

/** Timed jobs of the verification area, by kind. */
export const verificationJobs = { [verification.DECIDE_JOB]: verification.runDecisionJob };
