/** Account routes the SDK's usage methods call (compat §16). Plain response types. */

export interface CreditUsageResponse {
  success: true;
  data: { remainingCredits: number; planCredits: number; billingPeriodStart: string; billingPeriodEnd: string };
}

export interface TokenUsageResponse {
  success: true;
  data: { remainingTokens: number; planTokens: number; billingPeriodStart: string; billingPeriodEnd: string };
}

export interface UsagePeriod {
  startDate: string;
  endDate: string;
  apiKey?: string;
}

export interface CreditUsageHistoricalResponse {
  success: true;
  periods: (UsagePeriod & { creditsUsed: number })[];
}

export interface TokenUsageHistoricalResponse {
  success: true;
  periods: (UsagePeriod & { tokensUsed: number })[];
}

export interface QueueStatusResponse {
  success: true;
  jobsInQueue: number;
  activeJobsInQueue: number;
  waitingJobsInQueue: number;
  maxConcurrency: number;
  mostRecentSuccess: string | null;
}

export interface ConcurrencyCheckResponse {
  success: true;
  concurrency: number;
  maxConcurrency: number;
}

/** Tokens are reported from the credit ledger at this rate (the reference converts 1 credit to 15 tokens). */
export const TOKENS_PER_CREDIT = 15;
