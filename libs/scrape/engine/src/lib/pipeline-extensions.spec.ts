import {
  type DocumentEnricher,
  ENRICHER_ORDER,
  type EnricherName,
  PipelineExtensions,
} from './pipeline-extensions';

const enricher = (name: EnricherName): DocumentEnricher => ({
  name,
  appliesTo: () => true,
  enrich: async () => undefined,
});

describe('PipelineExtensions enrichers', () => {
  it('run in the declared ENRICHER_ORDER whatever order their modules register them', () => {
    const extensions = new PipelineExtensions();
    for (const name of [...ENRICHER_ORDER].reverse()) extensions.addEnricher(enricher(name));
    expect(extensions.enrichers.map((e) => e.name)).toEqual([...ENRICHER_ORDER]);

    const interleaved = new PipelineExtensions();
    for (const name of ['llm-formats', 'menu', 'engine-results', 'changeTracking', 'product'] as const)
      interleaved.addEnricher(enricher(name));
    expect(interleaved.enrichers.map((e) => e.name)).toEqual([...ENRICHER_ORDER]);
  });

  it('the language-model formats run after every deterministic format', () => {
    expect(ENRICHER_ORDER.at(-1)).toBe('llm-formats');
  });

  it('refuses an enricher that is not declared, or one registered twice', () => {
    const extensions = new PipelineExtensions();
    expect(() => extensions.addEnricher(enricher('unknown' as EnricherName))).toThrow(
      /not listed in ENRICHER_ORDER/,
    );
    extensions.addEnricher(enricher('menu'));
    expect(() => extensions.addEnricher(enricher('menu'))).toThrow(/registered twice/);
  });
});
