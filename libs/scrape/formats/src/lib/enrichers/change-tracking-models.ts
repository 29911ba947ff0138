/** What a language model does for change tracking when structured data is not enough. */
export interface ChangeTrackingModel {
  /** Values of `fields` (top-level properties of `schema`) read from one version of the page's markdown. */
  extractFields(input: {
    markdown: string;
    schema: Record<string, unknown>;
    fields: string[];
    prompt?: string;
  }): Promise<Record<string, unknown>>;
  /** A natural-language summary of what changed between two versions (json mode with a prompt and no schema). */
  summarizeChange(input: { previous: string; current: string; prompt?: string }): Promise<string>;
}

/**
 * Where the language-model layer plugs into change tracking (json mode fields that structured data
 * does not state, prompt-only summaries). Empty until an LLM module registers a model; the
 * enricher then says in `warning` which fields needed one.
 */
export class ChangeTrackingModels {
  private current?: ChangeTrackingModel;

  register(model: ChangeTrackingModel): void {
    this.current = model;
  }

  get model(): ChangeTrackingModel | undefined {
    return this.current;
  }
}
