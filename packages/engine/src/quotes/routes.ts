import { paymentEndpoints as e, umaEndpoints as uma } from '@railyard/contract';
import { bind } from '../http/app.js';
import { approveIncoming, approvalTimeoutJob, APPROVAL_TIMEOUT_JOB, rejectIncoming } from '../transactions/incoming.js';
import { cancelPayment, SETTLEMENT_JOB, settlementJob } from '../transactions/settlement.js';
import { confirmReceipt, findTransaction, listTransactions } from '../transactions/transactions.js';
import { lookupReceiver, receiveUmaPayment } from '../uma/uma.js';
import { createQuote, executeQuote, EXPIRE_JOB, expireJob, retrieveQuote, sandboxSend } from './quotes.js';

/** HTTP bindings of quotes, transactions and UMA (SPEC §4.5, §4.6; REFERENCE §4, §9, §13). */
export const paymentRoutes = [
  bind(e.createQuote, ({ tenant, body }) => createQuote(tenant, body)),
  bind(e.getQuote, ({ tenant, params }) => retrieveQuote(tenant, params.quoteId)),
  bind(e.executeQuote, ({ tenant, params }) => executeQuote(tenant, params.quoteId)),
  bind(e.sandboxSend, ({ tenant, body }) => sandboxSend(tenant, body)),
  bind(e.listTransactions, ({ tenant, query }) => listTransactions(tenant, query)),
  bind(e.getTransaction, ({ tenant, params }) => findTransaction(tenant, params.transactionId)),
  bind(e.approveTransaction, ({ tenant, params }) => approveIncoming(tenant, params.transactionId)),
  bind(e.rejectTransaction, ({ tenant, params }) => rejectIncoming(tenant, params.transactionId)),
  bind(e.cancelTransaction, ({ tenant, params }) => cancelPayment(tenant, params.transactionId)),
  bind(e.confirmTransaction, ({ tenant, params, body }) => confirmReceipt(tenant, params.transactionId, body?.receiptDeliveryConfirmedAt)),
  bind(uma.lookupUmaReceiver, ({ tenant, params, query }) => lookupReceiver(tenant, params.receiverUmaAddress, query)),
  bind(uma.sandboxUmaReceive, ({ tenant, body }) => receiveUmaPayment(tenant, body)),
];

/** Timed jobs of payments, by kind. */
export const paymentJobs = { [EXPIRE_JOB]: expireJob, [SETTLEMENT_JOB]: settlementJob, [APPROVAL_TIMEOUT_JOB]: approvalTimeoutJob };
