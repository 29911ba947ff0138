import { Module } from '@nestjs/common';

import { ExtractionModule } from '@quarry/scrape/model-formats';

import { DocParserLifecycle } from './doc-parser.lifecycle';
import { DocumentParseJobsConsumer } from './document-parse-jobs.consumer';

/**
 * Consumes parse jobs (PDFs fetched by scrapes, uploads to /v2/parse). Needs the jobs and billing
 * modules. Uploads get the language-model formats (summary, json, question…) like scrapes do.
 */
@Module({ imports: [ExtractionModule], providers: [DocParserLifecycle, DocumentParseJobsConsumer] })
export class DocParserModule {}
