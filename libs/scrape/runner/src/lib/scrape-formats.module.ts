import { Inject, Module, type OnModuleInit } from '@nestjs/common';

import { Database } from '@quarry/platform/database';
import { PipelineExtensions } from '@quarry/scrape/engine';
import {
  ChangeTrackingEnricher,
  ChangeTrackingModels,
  EngineResultsEnricher,
  MenuEnricher,
  ProductEnricher,
} from '@quarry/scrape/formats';
import { ChangeSnapshotRepository } from '@quarry/scrape/state';

import { ScrapeRunnerModule } from './scrape-runner.module';

/**
 * The deterministic derived formats of a scrape, registered as pipeline enrichers: engine results
 * (metadata, warnings, screenshot, actions, branding), product, menu and change tracking (the
 * enrichers live in @quarry/scrape/formats; this module only wires them into this process's pipeline).
 * `ChangeTrackingModels` is exported for the language-model layer to plug into.
 */
@Module({ imports: [ScrapeRunnerModule], providers: [ChangeTrackingModels], exports: [ChangeTrackingModels] })
export class ScrapeFormatsModule implements OnModuleInit {
  constructor(
    @Inject(PipelineExtensions) private readonly extensions: PipelineExtensions,
    @Inject(Database) private readonly db: Database,
    @Inject(ChangeTrackingModels) private readonly models: ChangeTrackingModels,
  ) {}

  onModuleInit(): void {
    this.extensions.addEnricher(new EngineResultsEnricher());
    this.extensions.addEnricher(new ProductEnricher());
    this.extensions.addEnricher(new MenuEnricher());
    this.extensions.addEnricher(
      new ChangeTrackingEnricher(new ChangeSnapshotRepository(this.db), this.models),
    );
  }
}
