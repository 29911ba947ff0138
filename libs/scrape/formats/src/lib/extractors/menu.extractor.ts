import { currencyOf, PRICE_PATTERN } from './currency.util';
import { compact } from './product.extractor';
import {
  absoluteUrl,
  isType,
  list,
  originalOf,
  parseAmount,
  type ParsedDocument,
  type ParsedElement,
  parseHtml,
  readStructuredData,
  type StructuredData,
  type StructuredNode,
  text,
} from './structured-data';

export interface MenuPrice {
  amount: number;
  currency?: string;
  formatted?: string;
}

export interface MenuItem {
  name: string;
  id?: string;
  description?: string | null;
  images?: { url: string; alt?: string | null }[];
  price?: MenuPrice;
  availability?: { inStock: boolean; text?: string | null };
  dietary?: string[];
  calories?: number | null;
  optionGroups?: Record<string, unknown>[];
  identifiers?: { merchantItemId: string };
  url?: string | null;
  sourceUrl?: string | null;
}

export interface MenuSection {
  id?: string;
  name: string;
  description?: string | null;
  items: MenuItem[];
}

/** docs/scraping.md#formats */
export interface Menu {
  isMenu: boolean;
  sections: MenuSection[];
  confidence?: number;
  merchant?: { name: string; type?: string };
  currency?: string;
  sourceUrl?: string | null;
}

const DIETS: Record<string, string> = {
  VeganDiet: 'vegan',
  VegetarianDiet: 'vegetarian',
  GlutenFreeDiet: 'gluten-free',
  HalalDiet: 'halal',
  KosherDiet: 'kosher',
  LowLactoseDiet: 'low-lactose',
  LowSaltDiet: 'low-salt',
  LowFatDiet: 'low-fat',
  LowCalorieDiet: 'low-calorie',
  DiabeticDiet: 'diabetic',
  HinduDiet: 'hindu',
};
const DIET_MARKERS: [RegExp, string][] = [
  [/\bvegan\b|\(vg\)/i, 'vegan'],
  [/\bvegetarian\b|\(v\)/i, 'vegetarian'],
  [/\bgluten[- ]free\b|\(gf\)/i, 'gluten-free'],
  [/\bdairy[- ]free\b|\(df\)/i, 'dairy-free'],
  [/\bhalal\b/i, 'halal'],
];
const ESTABLISHMENTS = [
  'Restaurant',
  'FoodEstablishment',
  'CafeOrCoffeeShop',
  'Bakery',
  'BarOrPub',
  'FastFoodRestaurant',
  'IceCreamShop',
  'Brewery',
  'Winery',
  'Distillery',
];

/**
 * The menu on a page (docs/scraping.md#formats) from schema.org `Menu`/`MenuSection`/`MenuItem` data (JSON-LD or
 * microdata), else from the DOM: headings followed by several priced items. Null when the page is
 * not a menu. The currency is set only when the page names it.
 */
export function extractMenu(html: string, pageUrl: string): Menu | null {
  const document = parseHtml(html);
  const data = readStructuredData(document);
  return fromStructuredData(data, pageUrl) ?? fromDom(document, data, pageUrl);
}

function fromStructuredData(data: StructuredData, pageUrl: string): Menu | null {
  const establishment = data.nodes.find((node) => isType(node, ...ESTABLISHMENTS));
  const menus = data.nodes.filter((node) => isType(node, 'Menu'));
  const sectionsSource: StructuredNode[] = [];
  const looseItems: StructuredNode[] = [];
  for (const menu of menus.length
    ? menus
    : establishment
      ? list(establishment['hasMenu']).filter((m): m is StructuredNode => !!m && typeof m === 'object')
      : []) {
    for (const section of list(menu['hasMenuSection']).filter(isNode)) sectionsSource.push(section);
    for (const item of list(menu['hasMenuItem']).filter(isNode)) looseItems.push(item);
  }
  if (sectionsSource.length === 0 && looseItems.length === 0) {
    // Top-level sections: those no other node lists. Nodes are copies of what the properties hold
    // (`originalOf`): compared as copies, every nested section was read again at the top level. A set
    // of the listed ones, where asking every node about every section was quadratic.
    const listed = new Set<unknown>();
    for (const node of data.nodes)
      for (const child of list(node['hasMenuSection'])) if (child !== originalOf(node)) listed.add(child);
    for (const node of data.nodes)
      if (isType(node, 'MenuSection') && !listed.has(originalOf(node))) sectionsSource.push(node);
  }
  const currencies = new Set<string>();
  const sections: MenuSection[] = [];
  const readSection = (section: StructuredNode, index: number, prefix: string) => {
    const items = list(section['hasMenuItem'])
      .filter(isNode)
      .map((item) => menuItem(item, pageUrl, currencies));
    if (items.length) {
      sections.push(
        compact({
          id: text(section['@id']) ?? `${prefix}${index + 1}`,
          name: text(section['name']) ?? 'Menu',
          description: text(section['description']) ?? null,
          items,
        }),
      );
    }
    list(section['hasMenuSection'])
      .filter(isNode)
      .forEach((child, childIndex) => readSection(child, childIndex, `${prefix}${index + 1}.`));
  };
  sectionsSource.forEach((section, index) => readSection(section, index, 's'));
  if (looseItems.length) {
    sections.push({
      id: `s${sections.length + 1}`,
      name: text(menus[0]?.['name']) ?? 'Menu',
      description: null,
      items: looseItems.map((item) => menuItem(item, pageUrl, currencies)),
    });
  }
  if (sections.length === 0) return null;
  const merchantName = text(establishment?.['name']);
  return compact({
    isMenu: true,
    sections,
    confidence: 0.95,
    merchant: merchantName
      ? { name: merchantName, type: (establishment?.['@type'] as string[] | undefined)?.[0] }
      : undefined,
    currency: currencies.size === 1 ? [...currencies][0] : undefined,
    sourceUrl: pageUrl,
  });
}

function menuItem(item: StructuredNode, pageUrl: string, currencies: Set<string>): MenuItem {
  const offer = list(item['offers']).find(isNode);
  const currency = text(offer?.['priceCurrency']);
  if (currency) currencies.add(currency);
  const amount = parseAmount(offer?.['price']);
  const dietary = list(item['suitableForDiet'])
    .map((diet) => DIETS[String(text(diet) ?? diet).replace(/^https?:\/\/schema\.org\//i, '')])
    .filter((diet): diet is string => !!diet);
  const calories = parseAmount(text((item['nutrition'] as StructuredNode | undefined)?.['calories']));
  const image = absoluteUrl(item['image'], pageUrl);
  const availability = text(offer?.['availability'])?.replace(/^https?:\/\/schema\.org\//i, '');
  const id = text(item['identifier']) ?? text(item['sku']);
  return compact({
    name: text(item['name']) ?? '',
    id: text(item['@id']) ?? id,
    description: text(item['description']) ?? null,
    images: image ? [{ url: image, alt: null }] : undefined,
    price: amount !== undefined ? { amount, currency, formatted: text(offer?.['price']) } : undefined,
    availability: availability
      ? { inStock: /InStock|LimitedAvailability|OnlineOnly/i.test(availability), text: availability }
      : undefined,
    dietary: dietary.length ? dietary : undefined,
    calories: calories ?? null,
    optionGroups: list(item['menuAddOn'])
      .filter(isNode)
      .map((group) => ({
        name: text(group['name']),
        options: list(group['hasMenuItem'])
          .filter(isNode)
          .map((option) => text(option['name'])),
      })),
    identifiers: id ? { merchantItemId: id } : undefined,
    url: absoluteUrl(item['url'], pageUrl) ?? null,
    sourceUrl: pageUrl,
  });
}

/** Headings followed by runs of priced items (name + price, optional description). */
function fromDom(document: ParsedDocument, data: StructuredData, pageUrl: string): Menu | null {
  const root = document.querySelector('main') ?? document.body;
  if (!root) return null;
  const headings = Array.from(root.querySelectorAll('h2, h3')) as ParsedElement[];
  const currencies = new Set<string>();
  const sections: MenuSection[] = [];
  for (const heading of headings) {
    const items: MenuItem[] = [];
    for (
      let node = heading.nextElementSibling as ParsedElement | null;
      node && !/^H[1-3]$/.test(node.tagName);
      node = node.nextElementSibling as ParsedElement | null
    ) {
      const candidates = /^(UL|OL|DL|DIV|SECTION|TABLE|TBODY)$/.test(node.tagName)
        ? (Array.from(node.querySelectorAll('li, tr, dt, [class*="item" i]')) as ParsedElement[])
        : [node];
      for (const candidate of candidates.length ? candidates : [node]) {
        const item = domItem(candidate, pageUrl, currencies);
        if (item) items.push(item);
      }
    }
    if (items.length >= 2)
      sections.push({
        id: `s${sections.length + 1}`,
        name: (heading.textContent ?? '').replace(/\s+/g, ' ').trim(),
        description: null,
        items,
      });
  }
  const total = sections.reduce((sum, section) => sum + section.items.length, 0);
  if (total < 3) return null;
  const title =
    data.meta['og:site_name'] ??
    (document.querySelector('h1')?.textContent ?? '').replace(/\s+/g, ' ').trim();
  return compact({
    isMenu: true,
    sections,
    confidence: Math.min(0.8, 0.5 + total * 0.02),
    merchant: title ? { name: title } : undefined,
    currency: currencies.size === 1 ? [...currencies][0] : undefined,
    sourceUrl: pageUrl,
  });
}

function domItem(element: ParsedElement, pageUrl: string, currencies: Set<string>): MenuItem | null {
  const content = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
  if (content.length < 3 || content.length > 400) return null;
  const priceMatch = content.match(PRICE_PATTERN);
  if (!priceMatch) return null;
  const amount = parseAmount(priceMatch[0]);
  if (amount === undefined) return null;
  const nameElement = element.querySelector('strong, b, h4, h5, [class*="name" i], [class*="title" i]');
  const name = (nameElement?.textContent ?? content.slice(0, priceMatch.index ?? 0))
    .replace(PRICE_PATTERN, '')
    .replace(/[.·…\-–—:]+\s*$/, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!name) return null;
  const description = content
    .replace(nameElement?.textContent ?? name, '')
    .replace(priceMatch[0], '')
    .replace(/\s+/g, ' ')
    .replace(/^[\s.·…\-–—:]+|[\s.·…\-–—:]+$/g, '')
    .trim();
  const currency = currencyOf(priceMatch[0]);
  if (currency) currencies.add(currency);
  const dietary = DIET_MARKERS.filter(([pattern]) => pattern.test(content)).map(([, diet]) => diet);
  const image = element.querySelector('img');
  const imageUrl = absoluteUrl(image?.getAttribute('src'), pageUrl);
  return compact({
    name,
    description: description || null,
    images: imageUrl ? [{ url: imageUrl, alt: image?.getAttribute('alt') ?? null }] : undefined,
    price: { amount, currency, formatted: priceMatch[0] },
    dietary: dietary.length ? dietary : undefined,
    calories: parseAmount(content.match(/(\d{2,4})\s*(?:kcal|cal\b|calories)/i)?.[1]) ?? null,
    sourceUrl: pageUrl,
  });
}

function isNode(value: unknown): value is StructuredNode {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}
