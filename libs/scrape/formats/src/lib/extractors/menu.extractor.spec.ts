import { extractMenu } from './menu.extractor';

describe('extractMenu', () => {
  it('reads a schema.org Restaurant menu with sections, prices, diets and calories', () => {
    const html = `<script type="application/ld+json">${JSON.stringify({
      '@context': 'https://schema.org',
      '@type': 'Restaurant',
      name: 'Trattoria Roma',
      hasMenu: {
        '@type': 'Menu',
        hasMenuSection: [
          {
            '@type': 'MenuSection',
            name: 'Antipasti',
            hasMenuItem: [
              {
                '@type': 'MenuItem',
                name: 'Bruschetta',
                description: 'Tomato',
                offers: { '@type': 'Offer', price: '7.50', priceCurrency: 'EUR' },
                suitableForDiet: 'https://schema.org/VeganDiet',
              },
              {
                '@type': 'MenuItem',
                name: 'Burrata',
                offers: { price: '11', priceCurrency: 'EUR' },
                nutrition: { calories: '420 calories' },
              },
            ],
          },
          {
            '@type': 'MenuSection',
            name: 'Pasta',
            hasMenuItem: {
              '@type': 'MenuItem',
              name: 'Carbonara',
              offers: { price: 14, priceCurrency: 'EUR' },
            },
          },
        ],
      },
    })}</script>`;
    const menu = extractMenu(html, 'https://roma.test/menu');
    expect(menu).toMatchObject({
      isMenu: true,
      confidence: 0.95,
      merchant: { name: 'Trattoria Roma', type: 'Restaurant' },
      currency: 'EUR',
      sourceUrl: 'https://roma.test/menu',
    });
    expect(menu?.sections.map((section) => section.name)).toEqual(['Antipasti', 'Pasta']);
    expect(menu?.sections[0].items[0]).toMatchObject({
      name: 'Bruschetta',
      description: 'Tomato',
      price: { amount: 7.5, currency: 'EUR' },
      dietary: ['vegan'],
      calories: null,
    });
    expect(menu?.sections[0].items[1]).toMatchObject({ name: 'Burrata', calories: 420, description: null });
    expect(menu?.sections[1].items).toHaveLength(1);
  });

  it('reads a menu from headings followed by priced items, with the currency only when named', () => {
    const html = `<main><h1>Corner Cafe</h1>
      <h2>Breakfast</h2><ul><li><strong>Pancakes</strong> maple syrup (V) <span>£6.50</span></li><li><strong>Full breakfast</strong> eggs and beans <span>£9.00</span></li></ul>
      <h2>Drinks</h2><ul><li><strong>Flat white</strong> <span>£3.20</span></li><li><strong>Juice</strong> (VG) <span>£2.80</span></li></ul></main>`;
    const menu = extractMenu(html, 'https://cafe.test/');
    expect(menu?.isMenu).toBe(true);
    expect(menu?.currency).toBe('GBP');
    expect(menu?.merchant).toEqual({ name: 'Corner Cafe' });
    expect(
      menu?.sections.map((section) => [
        section.name,
        section.items.map((item) => [item.name, item.price?.amount]),
      ]),
    ).toEqual([
      [
        'Breakfast',
        [
          ['Pancakes', 6.5],
          ['Full breakfast', 9],
        ],
      ],
      [
        'Drinks',
        [
          ['Flat white', 3.2],
          ['Juice', 2.8],
        ],
      ],
    ]);
    expect(menu?.sections[0].items[0].dietary).toEqual(['vegetarian']);
    expect(menu?.sections[0].items[0].description).toBe('maple syrup (V)');
    expect(extractMenu(html.replace(/£/g, '$'), 'https://cafe.test/')?.currency).toBeUndefined();
  });

  it('reads a JSON-LD menu of 150,000 sections without running out of stack or time', () => {
    // Spreading them into one call overflowed the stack; finding the top-level ones was quadratic.
    const sections = Array.from({ length: 150_000 }, (_, i) => ({
      '@type': 'MenuSection',
      name: `Section ${i}`,
      hasMenuItem: { '@type': 'MenuItem', name: `Dish ${i}`, offers: { price: '5', priceCurrency: 'EUR' } },
    }));
    const html = `<script type="application/ld+json">${JSON.stringify({ '@type': 'Menu', hasMenuSection: sections })}</script>`;
    const started = performance.now();
    const menu = extractMenu(html, 'https://food.test/menu');
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(menu?.sections).toHaveLength(150_000);
    expect(menu?.sections[149_999]).toMatchObject({ name: 'Section 149999' });
  });

  it('reads a nested section once, under its parent', () => {
    const pasta = {
      '@type': 'MenuSection',
      name: 'Pasta',
      hasMenuItem: [{ '@type': 'MenuItem', name: 'Carbonara', offers: { price: '12' } }],
    };
    const mains = {
      '@type': 'MenuSection',
      name: 'Mains',
      hasMenuSection: [pasta],
      hasMenuItem: [{ '@type': 'MenuItem', name: 'Steak', offers: { price: '20' } }],
    };
    const html = `<script type="application/ld+json">${JSON.stringify(mains)}</script>`;
    expect(extractMenu(html, 'https://food.test/menu')?.sections).toMatchObject([
      { id: 's1', name: 'Mains', items: [{ name: 'Steak' }] },
      { id: 's1.1', name: 'Pasta', items: [{ name: 'Carbonara' }] },
    ]);
    expect(extractMenu(html, 'https://food.test/menu')?.sections).toHaveLength(2);
  });

  it('returns null for pages that are not menus', () => {
    expect(
      extractMenu(
        '<main><h1>Blog</h1><h2>Post</h2><p>It cost $5 in 1999.</p><h2>Other</h2><p>Nothing priced.</p></main>',
        'https://x.test/',
      ),
    ).toBeNull();
  });
});
