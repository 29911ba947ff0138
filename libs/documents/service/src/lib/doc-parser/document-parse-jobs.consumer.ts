import { Inject, type OnApplicationBootstrap } from '@nestjs/common';

import { CONSUMER_GROUPS } from '@quarry/contracts';
import { MESSAGE_BUS, type MessageBus } from '@quarry/platform/bus';
import { APP_CONFIG, type AppConfig } from '@quarry/platform/config';

import { DocParserLifecycle } from './doc-parser.lifecycle';

/** Consumes `document.parse.jobs` (group `doc-parsers`): PDFs fetched by scrapes and uploads to /v2/parse. */
export class DocumentParseJobsConsumer implements OnApplicationBootstrap {
  constructor(
    @Inject(DocParserLifecycle) private readonly parser: DocParserLifecycle,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.bus.subscribe(
      'documentParseJobs',
      {
        group: CONSUMER_GROUPS.docParsers,
        concurrency: this.config.documents.concurrency,
      },
      (message) => this.parser.handler.handle(message.value),
    );
  }
}
