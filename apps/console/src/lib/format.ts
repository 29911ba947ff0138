const numberFormat = new Intl.NumberFormat('en');

export function formatNumber(value: number | null | undefined): string {
  return value === null || value === undefined ? '–' : numberFormat.format(value);
}

/** 850 ms, 12.4 s, 3 min 5 s, 2 h 4 min. */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '–';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min ${Math.round((ms % 60_000) / 1_000)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** ISO time as `2026-11-26 09:51:07` (local time), or – . */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '–';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

export function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'undefined';
}

/** Job kinds as people say them. */
export const KIND_LABELS: Record<string, string> = {
  scrape: 'Scrape',
  crawl: 'Crawl',
  batch_scrape: 'Batch scrape',
  map: 'Map',
  search: 'Search',
  parse: 'Parse',
  extract: 'Extract',
  agent: 'Agent',
  interact: 'Interact',
  monitor_check: 'Monitor check',
  other: 'Other',
};
