import { currencyOf, PRICE_PATTERN } from './currency.util';
import {
  absoluteUrl,
  isType,
  list,
  parseAmount,
  type ParsedDocument,
  parseHtml,
  readStructuredData,
  type StructuredData,
  type StructuredNode,
  text,
} from './structured-data';

export interface ProductPrice {
  amount: number;
  currency?: string;
  formatted?: string;
}

export interface ProductVariant {
  id?: string;
  sku?: string;
  title?: string;
  values?: Record<string, string>;
  price?: ProductPrice;
  sale?: { originalPrice: ProductPrice };
  availability: { inStock: boolean; text?: string };
  images?: { url: string; alt?: string }[];
}

/** docs/scraping.md#formats */
export interface Product {
  title: string;
  brand?: string;
  category?: string;
  url: string;
  description?: string;
  variants: ProductVariant[];
}

const IN_STOCK = /(InStock|LimitedAvailability|OnlineOnly|InStoreOnly|PreSale|PreOrder|BackOrder)$/i;
const STOCK_TEXT: Record<string, string> = {
  InStock: 'In stock',
  LimitedAvailability: 'Limited availability',
  OnlineOnly: 'Online only',
  InStoreOnly: 'In store only',
  PreOrder: 'Pre-order',
  PreSale: 'Pre-sale',
  BackOrder: 'Back order',
  OutOfStock: 'Out of stock',
  SoldOut: 'Sold out',
  Discontinued: 'Discontinued',
};
const VARIANT_PROPERTIES = [
  'color',
  'size',
  'material',
  'pattern',
  'suggestedAge',
  'suggestedGender',
  'width',
  'height',
  'depth',
  'weight',
];

/**
 * The product on a page (docs/scraping.md#formats) from, in order: JSON-LD / microdata `Product` or `ProductGroup`
 * (variants from `hasVariant` or from several offers), OpenGraph product tags, then DOM heuristics
 * (a heading, a price element and a buy button together). Null when the page shows no product:
 * nothing is guessed beyond what the page states.
 */
export function extractProduct(html: string, pageUrl: string): Product | null {
  const document = parseHtml(html);
  const data = readStructuredData(document);
  return (
    fromStructuredData(data, pageUrl) ?? fromOpenGraph(data, pageUrl) ?? fromDom(document, data, pageUrl)
  );
}

function fromStructuredData(data: StructuredData, pageUrl: string): Product | null {
  const group = data.nodes.find((node) => isType(node, 'ProductGroup'));
  const product =
    group ?? data.nodes.find((node) => isType(node, 'Product', 'IndividualProduct', 'ProductModel'));
  if (!product) return null;
  const title = text(product['name']);
  if (!title) return null;
  const url = absoluteUrl(data.canonical, pageUrl) ?? absoluteUrl(product['url'], pageUrl) ?? pageUrl;
  const breadcrumb = data.nodes.find((node) => isType(node, 'BreadcrumbList'));
  const category =
    text(product['category']) ??
    (breadcrumb
      ? list(breadcrumb['itemListElement'])
          .map((item) => text((item as StructuredNode)['name']) ?? text((item as StructuredNode)['item']))
          .filter(Boolean)
          .join(' > ') || undefined
      : undefined);
  const variesBy = list(group?.['variesBy'])
    .map((value) => String(value).replace(/^https?:\/\/schema\.org\//i, ''))
    .filter(Boolean);
  const productImages = images(product['image'], pageUrl);
  let variants: ProductVariant[];
  if (group) {
    variants = list(group['hasVariant'])
      .filter((variant): variant is StructuredNode => !!variant && typeof variant === 'object')
      .map((variant) => variantOf(variant, list(variant['offers'])[0], variesBy, pageUrl, productImages));
  } else {
    const offers = list(product['offers']).flatMap((offer) =>
      isType(offer, 'AggregateOffer') && (offer as StructuredNode)['offers']
        ? list((offer as StructuredNode)['offers'])
        : [offer],
    );
    variants = (offers.length ? offers : [undefined]).map((offer) =>
      variantOf(product, offer, variesBy, pageUrl, productImages),
    );
  }
  if (variants.length === 0)
    variants = [variantOf(product, list(product['offers'])[0], variesBy, pageUrl, productImages)];
  return compact({
    title,
    brand: text(product['brand']) ?? text(product['manufacturer']),
    category,
    url,
    description: text(product['description']),
    variants,
  });
}

function variantOf(
  node: StructuredNode,
  rawOffer: unknown,
  variesBy: string[],
  pageUrl: string,
  fallbackImages?: ProductVariant['images'],
): ProductVariant {
  const offer = rawOffer && typeof rawOffer === 'object' ? (rawOffer as StructuredNode) : undefined;
  const values: Record<string, string> = {};
  for (const property of variesBy.length ? variesBy : VARIANT_PROPERTIES) {
    const value = text(node[property]);
    if (value) values[property] = value;
  }
  for (const property of list(node['additionalProperty'])) {
    const name = text((property as StructuredNode)['name']);
    const value = text((property as StructuredNode)['value']);
    if (name && value) values[name] = value;
  }
  const currency =
    text(offer?.['priceCurrency']) ??
    text((list(offer?.['priceSpecification'])[0] as StructuredNode | undefined)?.['priceCurrency']);
  const amount =
    parseAmount(offer?.['price']) ??
    parseAmount(offer?.['lowPrice']) ??
    parseAmount((list(offer?.['priceSpecification'])[0] as StructuredNode | undefined)?.['price']);
  const original = list(offer?.['priceSpecification']).find((spec) =>
    /Strikethrough|ListPrice|MSRP/i.test(text((spec as StructuredNode)['priceType']) ?? ''),
  );
  const originalAmount = parseAmount((original as StructuredNode | undefined)?.['price']);
  const availabilityValue = text(offer?.['availability']) ?? text(node['availability']);
  const stockKey = availabilityValue?.replace(/^https?:\/\/schema\.org\//i, '');
  const sku = text(node['sku']) ?? text(offer?.['sku']);
  const variant: ProductVariant = {
    id: sku ?? text(node['productID']) ?? text(node['@id']) ?? text(offer?.['@id']),
    sku,
    title: text(node['name']) ?? text(offer?.['name']),
    values: Object.keys(values).length ? values : undefined,
    price: amount !== undefined ? { amount, currency, formatted: formatPrice(amount, currency) } : undefined,
    sale:
      originalAmount !== undefined && amount !== undefined && originalAmount > amount
        ? {
            originalPrice: {
              amount: originalAmount,
              currency,
              formatted: formatPrice(originalAmount, currency),
            },
          }
        : undefined,
    // schema.org: an offer without availability is for sale; absence of any offer says nothing, so in stock only when offered.
    availability: stockKey
      ? { inStock: IN_STOCK.test(stockKey), text: STOCK_TEXT[stockKey] ?? stockKey }
      : { inStock: offer !== undefined },
    images: images(node['image'], pageUrl) ?? fallbackImages,
  };
  return compact(variant);
}

function fromOpenGraph(data: StructuredData, pageUrl: string): Product | null {
  const meta = data.meta;
  const type = meta['og:type'];
  const amount = parseAmount(meta['product:price:amount'] ?? meta['og:price:amount']);
  if (!(type === 'product' || type === 'og:product') && amount === undefined) return null;
  const title = meta['og:title'] ?? meta['twitter:title'];
  if (!title) return null;
  const currency = meta['product:price:currency'] ?? meta['og:price:currency'];
  const availability = meta['product:availability'] ?? meta['og:availability'];
  const image = absoluteUrl(meta['og:image'], pageUrl);
  return compact({
    title,
    brand: meta['product:brand'] ?? meta['og:brand'],
    category: meta['product:category'],
    url: absoluteUrl(data.canonical, pageUrl) ?? absoluteUrl(meta['og:url'], pageUrl) ?? pageUrl,
    description: meta['og:description'] ?? meta['description'],
    variants: [
      compact({
        sku: meta['product:retailer_item_id'],
        id: meta['product:retailer_item_id'],
        title,
        price:
          amount !== undefined ? { amount, currency, formatted: formatPrice(amount, currency) } : undefined,
        availability: availability
          ? {
              inStock:
                /in ?stock|instock|available|preorder/i.test(availability) && !/out/i.test(availability),
              text: availability,
            }
          : { inStock: amount !== undefined },
        images: image ? [{ url: image }] : undefined,
      }),
    ],
  });
}

/** A heading, a price element and a buy button together: the DOM shape of a product page. */
function fromDom(document: ParsedDocument, data: StructuredData, pageUrl: string): Product | null {
  const buy = Array.from(document.querySelectorAll('button, input[type="submit"], a')).find((element) =>
    /add to (cart|bag|basket)|buy now|in den warenkorb|ajouter au panier/i.test(
      `${element.textContent ?? ''} ${element.getAttribute('value') ?? ''} ${element.getAttribute('aria-label') ?? ''}`,
    ),
  );
  if (!buy) return null;
  const title = (document.querySelector('h1')?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const priceElement = document.querySelector(
    '[itemprop="price"], [class*="price" i]:not([class*="old" i]):not([class*="was" i]), [id*="price" i]',
  );
  const priceText = (priceElement?.getAttribute('content') ?? priceElement?.textContent ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  const priceMatch = priceText.match(PRICE_PATTERN)?.[0] ?? (/\d/.test(priceText) ? priceText : undefined);
  const amount = parseAmount(priceMatch);
  if (!title || amount === undefined) return null;
  const oldElement = document.querySelector(
    '[class*="old-price" i], [class*="was-price" i], [class*="compare" i], del, s',
  );
  const oldAmount = parseAmount(oldElement?.textContent?.match(PRICE_PATTERN)?.[0]);
  const currency = priceMatch ? currencyOf(priceMatch) : undefined;
  const stockText = Array.from(
    document.querySelectorAll('[class*="stock" i], [class*="availability" i], [id*="availability" i]'),
  )
    .map((element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim())
    .find(Boolean);
  const disabled = buy.hasAttribute('disabled');
  const image = document.querySelector('[class*="product" i] img, main img');
  const imageUrl = absoluteUrl(image?.getAttribute('src'), pageUrl);
  return compact({
    title,
    url: absoluteUrl(data.canonical, pageUrl) ?? pageUrl,
    description: data.meta['description'],
    variants: [
      compact({
        title,
        price: { amount, currency, formatted: priceMatch },
        sale:
          oldAmount !== undefined && oldAmount > amount
            ? { originalPrice: { amount: oldAmount, currency, formatted: oldElement?.textContent?.trim() } }
            : undefined,
        availability: stockText
          ? {
              inStock: !/out of stock|sold out|unavailable|ausverkauft|épuisé/i.test(stockText),
              text: stockText,
            }
          : { inStock: !disabled },
        images: imageUrl ? [{ url: imageUrl, alt: image?.getAttribute('alt') ?? undefined }] : undefined,
      }),
    ],
  });
}

function images(value: unknown, pageUrl: string): ProductVariant['images'] | undefined {
  const found = list(value)
    .map((image) => {
      const url =
        absoluteUrl(image, pageUrl) ??
        absoluteUrl((image as StructuredNode | undefined)?.['contentUrl'], pageUrl);
      if (!url) return undefined;
      const alt =
        text((image as StructuredNode | undefined)?.['caption']) ??
        text((image as StructuredNode | undefined)?.['description']);
      return alt ? { url, alt } : { url };
    })
    .filter((image): image is { url: string; alt?: string } => !!image);
  return found.length ? found : undefined;
}

const SYMBOLS: Record<string, string> = { USD: '$', EUR: '€', GBP: '£', JPY: '¥', INR: '₹' };

function formatPrice(amount: number, currency?: string): string {
  const fixed = Number(amount.toFixed(2)) === amount ? amount.toFixed(2) : String(amount);
  if (!currency) return fixed;
  return SYMBOLS[currency] ? `${SYMBOLS[currency]}${fixed}` : `${fixed} ${currency}`;
}

/** Drops undefined members so responses carry only what the page stated. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as T;
}
