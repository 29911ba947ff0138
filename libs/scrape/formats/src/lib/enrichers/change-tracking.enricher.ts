import {
  type ChangeTrackingResult,
  findFormat,
  type FormatOf,
  type ScrapeDocument,
  type ScrapeRequest,
  urlKey,
} from '@quarry/contracts';
import type { DocumentEnricher, EnrichmentContext } from '@quarry/scrape/engine';
import type { ChangeSnapshot, ChangeSnapshotRepository } from '@quarry/scrape/state';

import { hasChanged, readSchemaFields } from '../extractors/change-tracking.util';
import { enrichmentTasks } from '../tasks/page-tasks';
import type { ChangeTrackingModels } from './change-tracking-models';
import { pageHtml } from './page-html.util';

type ChangeTrackingFormat = FormatOf<'changeTracking'>;

/**
 * `changeTracking` (docs/scraping.md#formats): compares this scrape with the previous one of the same team, URL
 * and tag. `new` on first sight (or after a removal), `removed` when the page answers 404/410,
 * `changed` when the markdown differs beyond whitespace (or, in json mode, a compared value
 * differs), else `same`. `git-diff` mode adds a unified diff, `json` mode the schema's fields with
 * their previous and current values, read from the page's structured data without a model; fields
 * the data does not state need the language-model layer (see ChangeTrackingModels).
 */
export class ChangeTrackingEnricher implements DocumentEnricher {
  readonly name = 'changeTracking';

  constructor(
    private readonly snapshots: ChangeSnapshotRepository,
    private readonly models: ChangeTrackingModels,
  ) {}

  appliesTo(request: ScrapeRequest): boolean {
    return findFormat(request.formats, 'changeTracking') !== undefined;
  }

  async enrich(document: ScrapeDocument, request: ScrapeRequest, context: EnrichmentContext): Promise<void> {
    const format = findFormat(request.formats, 'changeTracking') as ChangeTrackingFormat;
    if (!context.teamId) return;
    const key = { teamId: context.teamId, urlKey: urlKey(request.url), tag: format.tag };
    const previous = await this.snapshots.find(key);
    const markdown = document.markdown ?? '';
    const gone = document.metadata.statusCode === 404 || document.metadata.statusCode === 410;
    const html = pageHtml(context.page);
    const tasks = enrichmentTasks(context);
    const values = html ? await tasks('structuredValues', html) : {};
    const warnings: string[] = [];
    const comparable = previous && !previous.removed && !gone;

    const json =
      format.modes.includes('json') && comparable
        ? await this.compareJson(format, previous, markdown, values, warnings)
        : undefined;
    let changeStatus: ChangeTrackingResult['changeStatus'];
    if (gone) changeStatus = 'removed';
    else if (!comparable) changeStatus = 'new';
    else changeStatus = hasChanged(previous.markdown, markdown) || json?.differs ? 'changed' : 'same';

    const result: ChangeTrackingResult = {
      previousScrapeAt: previous?.scrapedAt.toISOString() ?? null,
      changeStatus,
      visibility: 'visible',
    };
    if (format.modes.includes('git-diff'))
      result.diff =
        changeStatus === 'changed' && previous ? await tasks('gitDiff', previous.markdown, markdown) : null;
    if (format.modes.includes('json')) result.json = changeStatus === 'changed' && json ? json.fields : null;
    document.changeTracking = result;
    if (warnings.length) document.warning = [document.warning, ...warnings].filter(Boolean).join(' ');

    if (request.zeroDataRetention) return; // nothing is stored: the next scrape compares with the last stored one
    await this.snapshots.save(key, {
      markdown: gone ? (previous?.markdown ?? '') : markdown,
      values: gone ? (previous?.values ?? null) : values,
      removed: gone,
      scrapedAt: new Date(),
    });
  }

  private async compareJson(
    format: ChangeTrackingFormat,
    previous: ChangeSnapshot,
    markdown: string,
    values: Record<string, unknown>,
    warnings: string[],
  ): Promise<{ fields: Record<string, { previous: unknown; current: unknown }>; differs: boolean }> {
    const fields: Record<string, { previous: unknown; current: unknown }> = {};
    let differs = false;
    const model = this.models.model;
    if (!format.schema) {
      if (!model) {
        warnings.push(
          'changeTracking json mode without a schema needs a language model to summarise the change; none is configured.',
        );
        return { fields, differs };
      }
      if (hasChanged(previous.markdown, markdown)) {
        fields['summary'] = {
          previous: null,
          current: await model.summarizeChange({
            previous: previous.markdown,
            current: markdown,
            prompt: format.prompt,
          }),
        };
      }
      return { fields, differs };
    }
    const current = readSchemaFields(format.schema, values);
    const before = readSchemaFields(format.schema, previous.values ?? {});
    for (const [field, value] of Object.entries(current.values)) {
      const old = before.values[field] ?? null;
      fields[field] = { previous: old, current: value };
      if (JSON.stringify(old) !== JSON.stringify(value)) differs = true;
    }
    if (current.missing.length) {
      if (model) {
        const [oldValues, newValues] = await Promise.all([
          model.extractFields({
            markdown: previous.markdown,
            schema: format.schema,
            fields: current.missing,
            prompt: format.prompt,
          }),
          model.extractFields({
            markdown,
            schema: format.schema,
            fields: current.missing,
            prompt: format.prompt,
          }),
        ]);
        for (const field of current.missing) {
          fields[field] = { previous: oldValues[field] ?? null, current: newValues[field] ?? null };
          if (JSON.stringify(fields[field].previous) !== JSON.stringify(fields[field].current))
            differs = true;
        }
      } else {
        warnings.push(
          `changeTracking json mode: ${current.missing.join(', ')} could not be read from the page's structured data and need a language model, which is not configured.`,
        );
      }
    }
    return { fields, differs };
  }
}
