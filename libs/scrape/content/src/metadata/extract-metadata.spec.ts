import { parseDocument } from '../dom/parse-document.util';
import { extractMetadata } from './extract-metadata.util';

const page = `<!doctype html><html lang="en-GB"><head>
  <title>  The  Title </title>
  <meta name="description" content="A description">
  <meta name="keywords" content="a, b">
  <meta name="robots" content="index,follow">
  <meta name="viewport" content="width=device-width">
  <meta property="og:title" content="OG title">
  <meta property="og:description" content="OG description">
  <meta property="og:url" content="https://example.com/page">
  <meta property="og:image" content="https://example.com/og.png">
  <meta property="og:audio" content="https://example.com/a.mp3">
  <meta property="og:video" content="https://example.com/v.mp4">
  <meta property="og:determiner" content="the">
  <meta property="og:locale" content="en_GB">
  <meta property="og:locale:alternate" content="fr_FR">
  <meta property="og:locale:alternate" content="de_DE">
  <meta property="og:site_name" content="Example">
  <meta property="article:published_time" content="2025-01-02T03:04:05Z">
  <meta property="article:modified_time" content="2025-02-03T04:05:06Z">
  <meta property="article:section" content="Tech">
  <meta property="article:tag" content="one">
  <meta property="article:tag" content="two">
  <meta name="DC.title" content="Dublin title">
  <meta name="dcterms.created" content="2024-12-31">
  <meta name="author" content="Ann">
  <meta name="author" content="Bob">
  <meta name="twitter:card" content="summary">
  <link rel="icon" href="/favicon-32.png">
</head><body><p>x</p></body></html>`;

describe('extractMetadata', () => {
  const sut = (html: string, url = 'https://example.com/dir/page') =>
    extractMetadata(parseDocument(html), url);

  it('reads the standard keys', () => {
    expect(sut(page)).toMatchObject({
      title: 'The Title',
      description: 'A description',
      language: 'en-GB',
      keywords: 'a, b',
      robots: 'index,follow',
      ogTitle: 'OG title',
      ogDescription: 'OG description',
      ogUrl: 'https://example.com/page',
      ogImage: 'https://example.com/og.png',
      ogAudio: 'https://example.com/a.mp3',
      ogVideo: 'https://example.com/v.mp4',
      ogDeterminer: 'the',
      ogLocale: 'en_GB',
      ogLocaleAlternate: ['fr_FR', 'de_DE'],
      ogSiteName: 'Example',
      publishedTime: '2025-01-02T03:04:05Z',
      modifiedTime: '2025-02-03T04:05:06Z',
      articleSection: 'Tech',
      articleTag: 'one, two',
      dcTitle: 'Dublin title',
      dcTermsCreated: '2024-12-31',
    });
  });

  it('makes the favicon absolute', () => {
    expect(sut(page).favicon).toBe('https://example.com/favicon-32.png');
  });

  it('keeps every other meta under its own name, joining repeated names with ", "', () => {
    const metadata = sut(page);
    expect(metadata.viewport).toBe('width=device-width');
    expect(metadata['twitter:card']).toBe('summary');
    expect(metadata.author).toBe('Ann, Bob');
    expect(metadata['og:locale:alternate']).toBe('fr_FR, de_DE');
  });

  it('falls back to og:title and omits what the page lacks', () => {
    const metadata = sut(
      '<html><head><meta property="og:title" content="Only OG"></head><body></body></html>',
    );
    expect(metadata.title).toBe('Only OG');
    expect(metadata.description).toBeUndefined();
    expect(metadata.ogLocaleAlternate).toBeUndefined();
  });
});
