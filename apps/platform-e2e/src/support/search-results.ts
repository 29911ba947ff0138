import type { FakeSearchResult } from './crawl-support';

/** What the fake search provider answers in map-search-usage.e2e-spec.ts, by category. */
export const general: FakeSearchResult[] = Array.from({ length: 25 }, (_, index) => ({
  url: `https://site${index % 3}.example.com/result-${index + 1}`,
  title: `Result ${index + 1}`,
  content: `Snippet of result ${index + 1}`,
}));
export const news: FakeSearchResult[] = Array.from({ length: 4 }, (_, index) => ({
  url: `https://news.example.com/story-${index + 1}`,
  title: `Story ${index + 1}`,
  content: `News snippet ${index + 1}`,
  publishedDate: `2026-11-0${index + 1}T08:00:00Z`,
  thumbnail_src: `https://news.example.com/thumb-${index + 1}.jpg`,
}));
export const images: FakeSearchResult[] = Array.from({ length: 3 }, (_, index) => ({
  url: `https://images.example.com/page-${index + 1}`,
  title: `Image ${index + 1}`,
  content: '',
  img_src: `https://images.example.com/full-${index + 1}.png`,
  resolution: '800x600',
}));

export const developer: FakeSearchResult[] = [
  { url: 'https://github.com/acme/widgets', title: 'acme/widgets', content: 'Widgets library' },
  { url: 'https://github.com/acme/gadgets', title: 'acme/gadgets', content: 'Gadgets library' },
];
export const science: FakeSearchResult[] = [
  { url: 'https://arxiv.org/abs/2601.00001', title: 'On widgets', content: 'A study of widgets' },
];
