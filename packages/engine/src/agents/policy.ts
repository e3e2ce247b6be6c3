/**
 * An agent's policy, applied (REFERENCE §20.2, §20.3, §20.5): what its permissions let it do, which accounts it may
 * use, how much it may spend, and what needs the platform's approval. A refusal is 403 FORBIDDEN (the reference has no
 * agent-specific codes) naming the rule; every check is made again when an approved action runs.
 */
import type { AgentPermission, AgentPolicy } from '@railyard/contract';
import { convertMinorUnits, MARKET } from '../config/exchange-rates.js';
import type { TenantContext } from '../core/context.js';
import { ApiError } from '../core/errors.js';
import { usageOf, type AgentRecord } from './agents.js';

/** 403 FORBIDDEN: the agent's policy refuses. */
export const forbidden = (message: string, rule: string): ApiError => new ApiError(403, 'FORBIDDEN', message, { rule });

/** 403 unless the agent holds the permission (and is not paused, when it would start something). */
export function requireAgentPermission(agent: AgentRecord, permission: AgentPermission): void {
  if (!agent.policy.permissions.includes(permission)) {
    throw forbidden(`Agent ${agent.id} does not hold ${permission} (its permissions: ${agent.policy.permissions.join(', ') || 'none'})`, 'permissions');
  }
}

/** 403 for a paused agent: it starts nothing. */
export function requireActive(agent: AgentRecord): void {
  if (agent.isPaused) throw forbidden(`Agent ${agent.id} is paused: the platform must resume it first`, 'isPaused');
}

/** A payment the agent asks for, as the policy weighs it. */
export interface Spend {
  readonly amount: number;
  readonly currency: string;
  /** The accounts it uses (internal or external). */
  readonly accountIds: readonly string[];
}

/** `amount` of `currency` in `to` (a currency without a sandbox rate counts at face value). */
const inCurrency = (amount: number, currency: string, to: string): number =>
  MARKET[currency] !== undefined && MARKET[to] !== undefined ? convertMinorUnits(amount, currency, to) : amount;

/**
 * Checks a payment against the policy and says whether it runs now or waits for approval; 403 FORBIDDEN when the
 * policy refuses it (an account not allowed, a limit passed). Returns the amount in the limits' currency, which the
 * agent's usage counts once it runs.
 */
export function weigh(tenant: TenantContext, agent: AgentRecord, spend: Spend): { needsApproval: boolean; counted: number } {
  const policy: AgentPolicy = agent.policy;
  const allowed = policy.accountRestrictions?.allowedAccountIds;
  for (const accountId of spend.accountIds) {
    if (allowed !== undefined && allowed !== null && !allowed.includes(accountId)) {
      throw forbidden(`Account ${accountId} is not among the accounts agent ${agent.id} may use`, 'accountRestrictions.allowedAccountIds');
    }
  }
  const rules = (policy.accountRestrictions?.accountRules ?? []).filter((rule) => spend.accountIds.includes(rule.accountId));
  const limits = policy.spendingLimits;
  const counted = inCurrency(spend.amount, spend.currency, limits.currency);
  const ruleLimits = rules.map((rule) => rule.perTransactionLimit).filter((limit): limit is number => typeof limit === 'number');
  const perTransaction = ruleLimits.length > 0 ? Math.min(...ruleLimits) : limits.perTransactionLimit;
  if (counted > perTransaction) {
    throw forbidden(`${counted} ${limits.currency} is above the per-transaction limit of ${perTransaction}`, ruleLimits.length > 0 ? 'accountRules.perTransactionLimit' : 'spendingLimits.perTransactionLimit');
  }
  const usage = usageOf(tenant, agent);
  if (limits.dailyLimit !== undefined && limits.dailyLimit !== null && usage.dailySpend + counted > limits.dailyLimit) {
    throw forbidden(`${usage.dailySpend} spent today and ${counted} more is above the daily limit of ${limits.dailyLimit} ${limits.currency}`, 'spendingLimits.dailyLimit');
  }
  if (limits.dailyTransactionLimit !== undefined && usage.dailyTransactionCount + 1 > limits.dailyTransactionLimit) {
    throw forbidden(`${usage.dailyTransactionCount} transactions today: the daily limit is ${limits.dailyTransactionLimit}`, 'spendingLimits.dailyTransactionLimit');
  }
  if (limits.monthlyLimit !== undefined && limits.monthlyLimit !== null && usage.monthlySpend + counted > limits.monthlyLimit) {
    throw forbidden(`${usage.monthlySpend} spent this month and ${counted} more is above the monthly limit of ${limits.monthlyLimit} ${limits.currency}`, 'spendingLimits.monthlyLimit');
  }
  const threshold = policy.approvalThresholds;
  const aboveThreshold = threshold?.amount !== undefined && threshold.amount !== null && threshold.currency !== undefined
    && inCurrency(spend.amount, spend.currency, threshold.currency) > threshold.amount;
  // An account's rule overrides the default mode for that account (APPROVAL_REQUIRED wins when several apply).
  const modes = rules.map((rule) => rule.executionMode).filter((mode) => mode !== undefined);
  const mode = modes.length > 0 ? (modes.includes('APPROVAL_REQUIRED') ? 'APPROVAL_REQUIRED' : 'AUTO') : policy.defaultExecutionMode;
  const needsApproval = mode === 'APPROVAL_REQUIRED' || aboveThreshold;
  return { needsApproval, counted };
}
