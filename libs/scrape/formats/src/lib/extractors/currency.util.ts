/** ISO 4217 codes the page itself can name unambiguously: explicit codes, or symbols used by one currency only. */
const UNAMBIGUOUS_SYMBOLS: Record<string, string> = {
  '€': 'EUR',
  '£': 'GBP',
  '₹': 'INR',
  '₩': 'KRW',
  '₽': 'RUB',
  '₺': 'TRY',
  '₪': 'ILS',
  '₫': 'VND',
  '฿': 'THB',
  '₴': 'UAH',
  '₦': 'NGN',
  CHF: 'CHF',
};
const ISO_CODE =
  /\b(USD|EUR|GBP|JPY|CNY|CHF|CAD|AUD|NZD|SEK|NOK|DKK|PLN|CZK|HUF|INR|BRL|MXN|ZAR|SGD|HKD|KRW|TRY|RUB|ILS|AED|SAR|THB|VND|UAH|NGN)\b/;

/** A price in page text: `$12.50`, `12,50 €`, `CHF 8.90`, `£8`. */
export const PRICE_PATTERN =
  /(?:(?:[$€£¥₹₩₽₺₪₫฿₴₦]|CHF|USD|EUR|GBP)\s?\d{1,6}(?:[.,]\d{3})*(?:[.,]\d{1,2})?|\d{1,6}(?:[.,]\d{3})*(?:[.,]\d{1,2})?\s?(?:[€£¥₹₩₽₺₪₫฿₴₦]|CHF|USD|EUR|GBP|kr\b))/;

/** The ISO code a price string names, when it names one unambiguously (a bare `$` does not). */
export function currencyOf(price: string): string | undefined {
  const code = price.match(ISO_CODE)?.[1];
  if (code) return code;
  for (const [symbol, iso] of Object.entries(UNAMBIGUOUS_SYMBOLS)) if (price.includes(symbol)) return iso;
  return undefined;
}
