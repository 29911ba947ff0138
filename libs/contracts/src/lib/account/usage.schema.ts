/** Account routes the SDK's usage methods call (docs/crawl.md#account-routes). */
import { z } from 'zod';

const period = { billingPeriodStart: z.string(), billingPeriodEnd: z.string() };

export const creditUsageResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ remainingCredits: z.number(), planCredits: z.number(), ...period }),
});
export type CreditUsageResponse = z.infer<typeof creditUsageResponseSchema>;

export const tokenUsageResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({ remainingTokens: z.number(), planTokens: z.number(), ...period }),
});
export type TokenUsageResponse = z.infer<typeof tokenUsageResponseSchema>;

export const usagePeriodSchema = z.object({
  startDate: z.string(),
  endDate: z.string(),
  apiKey: z.string().optional(),
});
export type UsagePeriod = z.infer<typeof usagePeriodSchema>;

export const creditUsageHistoricalResponseSchema = z.object({
  success: z.literal(true),
  periods: z.array(usagePeriodSchema.extend({ creditsUsed: z.number() })),
});
export type CreditUsageHistoricalResponse = z.infer<typeof creditUsageHistoricalResponseSchema>;

export const tokenUsageHistoricalResponseSchema = z.object({
  success: z.literal(true),
  periods: z.array(usagePeriodSchema.extend({ tokensUsed: z.number() })),
});
export type TokenUsageHistoricalResponse = z.infer<typeof tokenUsageHistoricalResponseSchema>;

export const queueStatusResponseSchema = z.object({
  success: z.literal(true),
  jobsInQueue: z.int(),
  activeJobsInQueue: z.int(),
  waitingJobsInQueue: z.int(),
  maxConcurrency: z.int(),
  mostRecentSuccess: z.string().nullable(),
});
export type QueueStatusResponse = z.infer<typeof queueStatusResponseSchema>;

export const concurrencyCheckResponseSchema = z.object({
  success: z.literal(true),
  concurrency: z.int(),
  maxConcurrency: z.int(),
});
export type ConcurrencyCheckResponse = z.infer<typeof concurrencyCheckResponseSchema>;

/** Tokens are reported from the credit ledger at this rate (the reference converts 1 credit to 15 tokens). */
export const TOKENS_PER_CREDIT = 15;
