import { Module } from '@nestjs/common';

import { LlmModule } from '@quarry/llm';
import { BrowserEngineModule } from '@quarry/scrape/browser';
import { ScrapeRunnerModule } from '@quarry/scrape/runner';

import { InteractCallsConsumer } from './interact-calls.consumer';

/**
 * Interact sessions on the scrape worker (docs/interact.md): the `interact.calls` consumer
 * (interact-calls.consumer.ts) on live pages in the worker's Chromium. In one-process mode the same
 * module runs beside the API.
 */
@Module({ imports: [ScrapeRunnerModule, BrowserEngineModule, LlmModule], providers: [InteractCallsConsumer] })
export class InteractWorkerModule {}
