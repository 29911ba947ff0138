import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { Database } from '@quarry/platform/database';
import { PipelineExtensions } from '@quarry/scrape/engine';
import { ScrapeRunnerModule } from '@quarry/scrape/runner';
import { ChangeSnapshotRepository } from '@quarry/scrape/state';
import { ChangeTrackingEnricher } from './change-tracking.enricher';
import { ChangeTrackingModels } from './change-tracking-models';
import { EngineResultsEnricher } from './engine-results.enricher';
import { MenuEnricher } from './menu.enricher';
import { ProductEnricher } from './product.enricher';

/**
 * The deterministic derived formats of a scrape, registered as pipeline enrichers: engine results
 * (metadata, warnings, screenshot, actions, branding), product, menu and change tracking.
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
