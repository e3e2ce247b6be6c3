import { contactVerificationEndpoints as e } from '@railyard/contract';
import { bind } from '../http/app.js';
import { confirmContactCode, sendContactCode } from './contact-verification.js';

/** HTTP bindings of contact verification (SPEC §4.3). */
export const contactVerificationRoutes = [
  bind(e.sendEmailVerificationCode, ({ tenant, params }) => sendContactCode(tenant, params.customerId, 'email')),
  bind(e.confirmEmailVerification, ({ tenant, params, body }) => confirmContactCode(tenant, params.customerId, 'email', body.code)),
  bind(e.sendPhoneVerificationCode, ({ tenant, params }) => sendContactCode(tenant, params.customerId, 'phone')),
  bind(e.confirmPhoneVerification, ({ tenant, params, body }) => confirmContactCode(tenant, params.customerId, 'phone', body.code)),
];
