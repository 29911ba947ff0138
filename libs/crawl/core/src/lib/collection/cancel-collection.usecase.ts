import { AppError } from '@quarry/contracts';

import type { CollectionKind } from '../frontier/frontier.types';
import type { Caller, CollectionServiceDeps } from './collection.types';
import { findCollection } from './collection-records.util';

/** `DELETE /v2/crawl/:id` and `/v2/batch/scrape/:id`: a running collection stops; an ended one is a 409. */
export class CancelCollectionUseCase {
  constructor(private readonly deps: CollectionServiceDeps) {}

  async execute(caller: Caller, kind: CollectionKind, id: string): Promise<{ status: 'cancelled' }> {
    await findCollection(this.deps, caller, kind, id);
    if (!(await this.deps.collections.cancel(id)))
      throw new AppError('CONFLICT', { message: 'Crawl is already completed' });
    return { status: 'cancelled' };
  }
}
