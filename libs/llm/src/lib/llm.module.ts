import { Global, Module } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';
import { Database } from '@quarry/platform/database';
import { LOGGER, type Logger } from '@quarry/platform/observability';

import { LLM_PROVIDER, type LlmProvider, type TokenUsageSink } from './llm.types';
import { OfflineProvider } from './offline.provider';
import { OpenAiCompatibleProvider } from './openai-compatible.provider';
import { TokenUsageRepository } from './token-usage.repository';

/** The provider the configuration asks for: an OpenAI-compatible endpoint, or offline. */
export function createLlmProvider(
  config: AppConfig,
  usageSink?: TokenUsageSink,
  logger?: Logger,
): LlmProvider {
  const llm = config.llm;
  if (!llm.baseUrl) return new OfflineProvider(llm.maxOutputTokens, llm.maxInputChars);
  return new OpenAiCompatibleProvider({
    baseUrl: llm.baseUrl,
    apiKey: llm.apiKey,
    model: llm.model,
    timeoutMs: llm.timeoutMs,
    maxAttempts: llm.maxAttempts,
    maxOutputTokens: llm.maxOutputTokens,
    maxInputChars: llm.maxInputChars,
    usageSink,
    logger,
  });
}

/** Provides the process's LlmProvider (LLM_PROVIDER) and the token usage store. */
@Global()
@Module({
  providers: [
    {
      provide: TokenUsageRepository,
      useFactory: (db: Database) => new TokenUsageRepository(db),
      inject: [Database],
    },
    {
      provide: LLM_PROVIDER,
      useFactory: (config: AppConfig, usage: TokenUsageRepository, logger: Logger) =>
        createLlmProvider(config, usage, logger.child({ component: 'llm' })),
      inject: [APP_CONFIG, TokenUsageRepository, LOGGER],
    },
  ],
  exports: [LLM_PROVIDER, TokenUsageRepository],
})
export class LlmModule {}
