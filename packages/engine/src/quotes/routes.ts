import { paymentEndpoints as e, umaEndpoints as uma } from '@railyard/contract';
import { bind, HttpResult } from '../http/app.js';
import { walletSignatureOf } from '../http/signed.js';
import { decideAgentTransaction } from '../agents/actions.js';
import { approveIncoming, approvalTimeoutJob, APPROVAL_TIMEOUT_JOB, rejectIncoming } from '../transactions/incoming.js';
import { cancelPayment, SETTLEMENT_JOB, settlementJob } from '../transactions/settlement.js';
import { confirmReceipt, findTransaction, listTransactions } from '../transactions/transactions.js';
import { lookupReceiver, receiveUmaPayment } from '../uma/uma.js';
import { listExchangeRates } from './exchange-rates.js';
import { listQuotes } from './list.js';
import {
  authorizeQuote, createQuote, executeQuoteFromApi, EXPIRE_JOB, expireJob, resendQuoteAuthorization, retrieveQuote, sandboxSend, SCA_TIMEOUT_JOB, scaTimeoutJob,
  transferIn, transferOut,
} from './quotes.js';

/** HTTP bindings of quotes, transactions and UMA (SPEC §4.5, §4.6; REFERENCE §4, §9, §13). */
export const paymentRoutes = [
  bind(e.createQuote, ({ tenant, body }) => {
    const quote = createQuote(tenant, body);
    // Accepted but not yet payable: a real-time funding quote waiting for strong customer authentication.
    return quote.status === 'PENDING_AUTHORIZATION' && quote.source.sourceType === 'REALTIME_FUNDING' ? new HttpResult(202, quote) : quote;
  }),
  bind(e.listQuotes, ({ tenant, query }) => listQuotes(tenant, query)),
  bind(e.getQuote, ({ tenant, params }) => retrieveQuote(tenant, params.quoteId)),
  bind(e.executeQuote, ({ tenant, params, request }) => executeQuoteFromApi(tenant, params.quoteId, walletSignatureOf(request))),
  bind(e.authorizeQuote, ({ tenant, params, body }) => authorizeQuote(tenant, params.quoteId, body)),
  bind(e.resendQuoteAuthorization, ({ tenant, params }) => resendQuoteAuthorization(tenant, params.quoteId)),
  bind(e.sandboxSend, ({ tenant, body }) => sandboxSend(tenant, body)),
  bind(e.listExchangeRates, ({ tenant, query }) => listExchangeRates(tenant, query)),
  bind(e.transferIn, ({ tenant, body }) => transferIn(tenant, body)),
  bind(e.transferOut, ({ tenant, body }) => transferOut(tenant, body)),
  bind(e.listTransactions, ({ tenant, query }) => listTransactions(tenant, query)),
  bind(e.getTransaction, ({ tenant, params }) => findTransaction(tenant, params.transactionId)),
  // An agent-initiated transaction waiting for the platform (SPEC §4.5) is approved or rejected here too.
  bind(e.approveTransaction, ({ tenant, params, body }) =>
    decideAgentTransaction(tenant, params.transactionId, 'approve') ?? approveIncoming(tenant, params.transactionId, body?.receiverCustomerInfo)),
  bind(e.rejectTransaction, ({ tenant, params, body }) =>
    decideAgentTransaction(tenant, params.transactionId, 'reject', body?.reason) ?? rejectIncoming(tenant, params.transactionId)),
  bind(e.cancelTransaction, ({ tenant, params }) => cancelPayment(tenant, params.transactionId)),
  bind(e.confirmTransaction, ({ tenant, params, body }) => confirmReceipt(tenant, params.transactionId, body?.receiptDeliveryConfirmedAt)),
  bind(uma.lookupUmaReceiver, ({ tenant, params, query }) => lookupReceiver(tenant, params.receiverUmaAddress, query)),
  bind(uma.sandboxUmaReceive, ({ tenant, body }) => receiveUmaPayment(tenant, body)),
];

/** Timed jobs of payments, by kind. */
export const paymentJobs = {
  [EXPIRE_JOB]: expireJob, [SCA_TIMEOUT_JOB]: scaTimeoutJob, [SETTLEMENT_JOB]: settlementJob, [APPROVAL_TIMEOUT_JOB]: approvalTimeoutJob,
};
