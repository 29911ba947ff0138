/** What a country looks like to a page: its time zone, locale and preferred languages. */
export interface LocationProfile {
  country: string;
  timezone: string;
  locale: string;
  languages: string[];
}

/** Capital (or most populous) zone of countries with several; ICU lists those alphabetically. */
const PRIMARY_ZONE: Record<string, string> = {
  AQ: 'Antarctica/McMurdo',
  AR: 'America/Argentina/Buenos_Aires',
  AU: 'Australia/Sydney',
  BR: 'America/Sao_Paulo',
  CA: 'America/Toronto',
  CD: 'Africa/Kinshasa',
  CL: 'America/Santiago',
  CN: 'Asia/Shanghai',
  CY: 'Asia/Nicosia',
  DE: 'Europe/Berlin',
  EC: 'America/Guayaquil',
  ES: 'Europe/Madrid',
  FM: 'Pacific/Ponape',
  GL: 'America/Godthab',
  ID: 'Asia/Jakarta',
  KI: 'Pacific/Tarawa',
  KZ: 'Asia/Almaty',
  MH: 'Pacific/Majuro',
  MN: 'Asia/Ulaanbaatar',
  MX: 'America/Mexico_City',
  MY: 'Asia/Kuala_Lumpur',
  NZ: 'Pacific/Auckland',
  PF: 'Pacific/Tahiti',
  PG: 'Pacific/Port_Moresby',
  PS: 'Asia/Hebron',
  PT: 'Europe/Lisbon',
  RU: 'Europe/Moscow',
  UA: 'Europe/Kiev',
  UM: 'Pacific/Midway',
  US: 'America/New_York',
  UZ: 'Asia/Tashkent',
};

/**
 * The time zone and language of an ISO 3166-1 alpha-2 country from the ICU data that ships with
 * Node (likely-subtags for the language, the region's zones for the time), so every country works
 * without a hand-kept table. `languages` (the request's) win over the country's language.
 */
export function locationProfile(country: string, languages?: readonly string[]): LocationProfile {
  const region = country.toUpperCase();
  const { language, timezone } = regionFacts(region);
  const countryLocale = `${language}-${region}`;
  const preferred = languages?.length ? [...languages] : defaultLanguages(language, countryLocale);
  return { country: region, timezone, locale: preferred[0] ?? countryLocale, languages: preferred };
}

interface RegionFacts {
  language: string;
  timezone: string;
}

/**
 * A region's language and zone, looked up in ICU once per two-letter code (the lookup is on every
 * fetch's path: ~0.01 ms a call measured alone, 27 ms of self time over 200 scrapes in a profile of
 * the one-process server); at most 26 × 26 entries.
 */
const REGION_FACTS = new Map<string, RegionFacts>();

function regionFacts(region: string): RegionFacts {
  const known = REGION_FACTS.get(region);
  if (known) return known;
  let language = 'en';
  try {
    language = new Intl.Locale(`und-${region}`).maximize().language || 'en';
  } catch {
    // unknown region: English
  }
  const facts = { language, timezone: PRIMARY_ZONE[region] ?? regionZones(region)[0] ?? 'UTC' };
  if (/^[A-Z]{2}$/.test(region)) REGION_FACTS.set(region, facts);
  return facts;
}

function defaultLanguages(language: string, locale: string): string[] {
  const list = [locale, language];
  if (language !== 'en') list.push('en');
  return list;
}

function regionZones(region: string): string[] {
  try {
    const locale = new Intl.Locale(`und-${region}`) as Intl.Locale & {
      timeZones?: string[];
      getTimeZones?: () => string[];
    };
    return locale.getTimeZones?.() ?? locale.timeZones ?? [];
  } catch {
    return [];
  }
}

/** Accept-Language value for a list of locales, with decreasing q-values: `de-CH,de;q=0.9,en;q=0.8`. */
export function acceptLanguageHeader(languages: readonly string[]): string {
  return languages
    .map((language, index) =>
      index === 0 ? language : `${language};q=${Math.max(0.1, 1 - index / 10).toFixed(1)}`,
    )
    .join(',');
}
