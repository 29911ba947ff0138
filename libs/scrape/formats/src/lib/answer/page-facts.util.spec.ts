import { timeGrowth } from '@quarry/testing';

import { pageFacts } from './page-facts.util';

describe('pageFacts', () => {
  const sut = pageFacts;

  it('reads a page of 40,000 price elements in linear time (each pair was compared: 20 s)', () => {
    const html = `<html><body><main><h1>Price list</h1>${'<p class="price">€ 5,00</p>'.repeat(40_000)}</main></body></html>`;
    const started = performance.now();
    const facts = sut({
      markdown: '# Price list\n\n€ 5,00',
      html,
      url: 'https://shop.test/',
      title: 'Prices',
    });
    expect(performance.now() - started).toBeLessThan(8_000);
    expect(facts.headline).toBe('Price list');
  });

  it('reads a definition list of 90,000 entries (spreading its facts into one call overflowed the stack)', () => {
    const html = `<html><body><main><dl>${'<dt>Weight</dt><dd>5 kg</dd>'.repeat(90_000)}</dl></main></body></html>`;
    const markdown = 'Weight\n: 5 kg\n'.repeat(90_000);
    const { facts } = sut({ markdown, html, url: 'https://shop.test/', title: 'Weights' });
    expect(facts.length).toBeGreaterThan(130_000);
  });

  it('checks distinct labelled values against the main content in linear time (one search of the text per value: minutes at 90,000)', () => {
    const page = (count: number) => {
      const entries = Array.from({ length: count }, (_, index) => [`Weight ${index}`, `${index} g`]);
      return {
        html: `<html><body><main><dl>${entries.map(([label, value]) => `<dt>${label}</dt><dd>${value}</dd>`).join('')}</dl></main></body></html>`,
        markdown: entries.map(([label, value]) => `${label}\n\n${value}`).join('\n\n'),
        url: 'https://shop.test/',
        title: 'Weights',
      };
    };
    const { ratio, result } = timeGrowth(page, sut, 8_000, 40_000);
    // Five times the values costs about five times the time when each is found in one pass, and
    // about 20 times when every value searches the whole text (measured: 0.86 s → 18.5 s).
    expect(ratio).toBeLessThan(10);
    expect(result.facts.filter((fact) => fact.label === 'Weight 39999').map((fact) => fact.value)).toContain(
      '39999 g',
    );
  });

  it('reads repeated microdata properties as one array, in order', () => {
    const items = ['Red', 'Green', 'Blue'].map((color) => `<span itemprop="color">${color}</span>`).join('');
    const html = `<html><body><div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Kite</span>${items}</div></body></html>`;
    const { entities } = sut({ markdown: 'Kite', html, url: 'https://shop.test/kite', title: 'Kite' });
    expect(entities.find((entity) => entity.source === 'microdata')?.properties).toMatchObject({
      name: 'Kite',
      color: ['Red', 'Green', 'Blue'],
    });
  });
});
