import type { FixtureHandler } from '@quarry/testing';

// The fixture sites of the offline agent quality e2e (agent-quality.e2e-spec.ts).
const html =
  (body: string): FixtureHandler =>
  (_request, response) =>
    void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);

const page = (title: string, main: string, options: { head?: string; nav?: string } = {}) =>
  `<!doctype html><html lang="en"><head><title>${title}</title>${options.head ?? ''}</head><body>
<header><nav>${options.nav ?? ''}</nav></header><main>${main}</main>
<footer><p>© 2024 — all rights reserved. <a href="/privacy">Privacy</a></p></footer></body></html>`;

const jsonLd = (value: unknown) => `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
const product = (name: string, price: number, brand: string) =>
  jsonLd({
    '@context': 'https://schema.org',
    '@type': 'Product',
    name,
    brand: { '@type': 'Brand', name: brand },
    offers: {
      '@type': 'Offer',
      price: price.toFixed(2),
      priceCurrency: 'USD',
      availability: 'https://schema.org/InStock',
    },
  });

export const SITE: Record<string, FixtureHandler> = {
  // A SaaS site: the plan prices are one link away from the home page.
  '/acme/': html(
    page(
      'Acme Projects',
      `<h1>Acme Projects</h1><p>Project planning software for small teams.</p>
<ul><li><a href="/acme/pricing-team">Team plan pricing</a></li><li><a href="/acme/pricing-pro">Pro plan pricing</a></li><li><a href="/acme/careers">Careers</a></li></ul>`,
      { nav: '<a href="/acme/">Home</a> <a href="/acme/blog">Blog</a>' },
    ),
  ),
  '/acme/pricing-team': html(
    page(
      'Acme Team plan',
      '<h1>Team plan</h1><p>Name: Acme Team</p><p>Price: 29</p><p>Currency: USD</p><p>Up to 10 users, unlimited projects.</p>',
    ),
  ),
  '/acme/pricing-pro': html(
    page(
      'Acme Pro plan',
      '<h1>Pro plan</h1><p>Name: Acme Pro</p><p>Price: 79</p><p>Currency: USD</p><p>Unlimited users and SSO.</p>',
    ),
  ),
  '/acme/careers': html(
    page('Careers at Acme', '<h1>Careers</h1><p>We are hiring two engineers in Porto.</p>'),
  ),
  // A company site: the facts sit on the about page.
  '/halden/': html(
    page(
      'Halden Logistics',
      `<h1>Halden Logistics</h1><p>Freight and warehousing across the Nordics.</p>
<p><a href="/halden/about">About us</a> · <a href="/halden/contact">Contact</a> · <a href="/halden/news">News</a></p>`,
    ),
  ),
  '/halden/about': html(
    page(
      'About Halden Logistics',
      '<h1>About us</h1><p>Halden Logistics was founded in 1998 in Halden, Norway. Today the company operates 40 warehouses and employs 2,300 people.</p>',
    ),
  ),
  '/halden/contact': html(
    page('Contact Halden', '<h1>Contact</h1><p>Write to info@halden.example or call +47 555 01 234.</p>'),
  ),
  '/halden/news': html(page('News', '<h1>News</h1><p>New terminal opened in Gothenburg in March.</p>')),
  // A shop whose pages carry JSON-LD; its return policy is found through the team's index only.
  '/summit/trail-runner-3': html(
    page(
      'Trail Runner 3 | Summit Gear',
      '<h1>Trail Runner 3</h1><p>A lightweight trail shoe with a rock plate.</p>',
      { head: product('Trail Runner 3', 129, 'Summit Gear') },
    ),
  ),
  '/summit/road-glide': html(
    page('Road Glide | Summit Gear', '<h1>Road Glide</h1><p>A cushioned road shoe for daily miles.</p>', {
      head: product('Road Glide', 99, 'Summit Gear'),
    }),
  ),
  '/summit/returns': html(
    page(
      'Returns and refunds | Summit Gear',
      '<h1>Returns and refunds</h1><p>You can return unworn shoes within 30 days of delivery for a full refund. Refunds reach your card within five working days.</p>',
    ),
  ),
  // Developer documentation.
  '/docs/': html(
    page(
      'Acme API documentation',
      `<h1>Acme API</h1><p>Guides for the Acme REST API.</p>
<ul><li><a href="/docs/authentication">Authentication</a></li><li><a href="/docs/rate-limits">Rate limits</a></li><li><a href="/docs/errors">Errors</a></li></ul>`,
    ),
  ),
  '/docs/authentication': html(
    page(
      'Authentication',
      '<h1>Authentication</h1><p>Send your API key in the Authorization header as a bearer token.</p>',
    ),
  ),
  '/docs/rate-limits': html(
    page(
      'Rate limits',
      '<h1>Rate limits</h1><p>Each API key may send 100 requests per minute. Requests above the limit receive HTTP 429 with a Retry-After header.</p>',
    ),
  ),
  '/docs/errors': html(page('Errors', '<h1>Errors</h1><p>Errors use the problem+json format.</p>')),
  // A restaurant: opening hours in a table on the home page.
  '/trattoria/': html(
    page(
      'Trattoria Nonna',
      `<h1>Trattoria Nonna</h1><p>Family-run Italian kitchen on Canal Street since 1987.</p>
<h2>Opening hours</h2><table><tr><th>Day</th><th>Hours</th></tr><tr><td>Monday</td><td>closed</td></tr>
<tr><td>Tuesday to Saturday</td><td>17:30–22:30</td></tr><tr><td>Sunday</td><td>12:00–15:00</td></tr></table>`,
    ),
  ),
  // A news article with a byline and a date.
  '/news/airline-routes': html(
    page(
      'Regional airline adds three routes for the summer',
      `<article><h1>Regional airline adds three routes for the summer</h1>
<p class="byline">By <span class="author">Jana Novak</span> · <time datetime="2024-03-14">14 March 2024</time></p>
<p>Skyline Regional will fly from Brno to Split, Olbia and Faro from June, the company said on Thursday.</p></article>`,
      {
        head: '<meta name="author" content="Jana Novak"><meta property="article:published_time" content="2024-03-14T08:00:00Z">',
      },
    ),
  ),
  // An outdoor shop: the product is two links away from the home page.
  '/outdoor/': html(
    page(
      'Fjell Outdoor',
      '<h1>Fjell Outdoor</h1><p>Gear for hiking and camping.</p><p><a href="/outdoor/tents">Tents</a> · <a href="/outdoor/backpacks">Backpacks</a></p>',
    ),
  ),
  '/outdoor/tents': html(
    page(
      'Tents',
      '<h1>Tents</h1><ul><li><a href="/outdoor/tents/ridge-2p-tent">Ridge 2P tent</a></li><li><a href="/outdoor/tents/dome-4p-tent">Dome 4P tent</a></li></ul>',
    ),
  ),
  '/outdoor/backpacks': html(page('Backpacks', '<h1>Backpacks</h1><p>Coming soon.</p>')),
  '/outdoor/tents/ridge-2p-tent': html(
    page('Ridge 2P tent | Fjell Outdoor', '<h1>Ridge 2P tent</h1><p>A two-person tent, 1.9 kg.</p>', {
      head: product('Ridge 2P tent', 349, 'Fjell'),
    }),
  ),
  '/outdoor/tents/dome-4p-tent': html(
    page('Dome 4P tent | Fjell Outdoor', '<h1>Dome 4P tent</h1><p>A family tent, 6.5 kg.</p>', {
      head: product('Dome 4P tent', 499, 'Fjell'),
    }),
  ),
  // An event page: the answer is on the page given.
  '/ldw/': html(
    page(
      'Lisbon Design Week 2024',
      '<h1>Lisbon Design Week 2024</h1><p>Lisbon Design Week runs from 3 June to 9 June 2024 across 40 studios and galleries. Entry to most venues is free.</p>',
    ),
  ),
  // A startup: the chief executive is named on the team page.
  '/lumen/': html(
    page(
      'Lumen Labs',
      '<h1>Lumen Labs</h1><p>Private language models that run on your own servers.</p><p><a href="/lumen/team">Our team</a> · <a href="/lumen/jobs">Jobs</a></p>',
    ),
  ),
  '/lumen/team': html(
    page(
      'Team | Lumen Labs',
      '<h1>Our team</h1><p>Rui Almeida is the chief executive officer and co-founder of Lumen Labs. Marta Sousa leads research.</p>',
    ),
  ),
  '/lumen/jobs': html(page('Jobs | Lumen Labs', '<h1>Jobs</h1><p>No open positions.</p>')),
};

// Written after the agent's fallbacks were frozen, and never tuned on.
export const HELD_OUT_SITE: Record<string, FixtureHandler> = {
  '/museum/': html(
    page(
      'Harbour Museum',
      '<h1>Harbour Museum</h1><p>Ships, maps and the story of the old port.</p><p><a href="/museum/visit">Plan your visit</a> · <a href="/museum/collections">Collections</a></p>',
    ),
  ),
  '/museum/visit': html(
    page(
      'Plan your visit | Harbour Museum',
      `<h1>Plan your visit</h1><p>Open daily from 10:00 to 17:00.</p>
<table><tr><th>Ticket</th><th>Price</th></tr><tr><td>Adult</td><td>18 EUR</td></tr><tr><td>Student</td><td>9 EUR</td></tr><tr><td>Child under 12</td><td>free</td></tr></table>`,
    ),
  ),
  '/museum/collections': html(page('Collections', '<h1>Collections</h1><p>Over 4,000 objects.</p>')),
  '/relay/': html(
    page(
      'Relay — message queue',
      '<h1>Relay</h1><p>A small message queue for Go services.</p><p><a href="/relay/changelog">Changelog</a> · <a href="/relay/install">Install</a></p>',
    ),
  ),
  '/relay/changelog': html(
    page(
      'Changelog | Relay',
      '<h1>Changelog</h1><h2>4.2.0</h2><p>Version 4.2.0 was released on 12 February 2024 and is the current release. It adds delayed messages.</p><h2>4.1.3</h2><p>Bug fixes.</p>',
    ),
  ),
  '/relay/install': html(page('Install | Relay', '<h1>Install</h1><p>go get relay.example/relay</p>')),
  '/hotel/alfama': html(
    page(
      'Casa Alfama Hotel, Lisbon',
      '<h1>Casa Alfama</h1><p>A boutique hotel with 14 rooms above the river.</p>',
      {
        head: jsonLd({
          '@context': 'https://schema.org',
          '@type': 'Hotel',
          name: 'Casa Alfama',
          telephone: '+351 21 555 0101',
          address: {
            '@type': 'PostalAddress',
            streetAddress: 'Rua dos Remédios 12',
            addressLocality: 'Lisbon',
          },
        }),
      },
    ),
  ),
  '/recipes/focaccia': html(
    page(
      'Sourdough focaccia',
      '<h1>Sourdough focaccia</h1><p>Stretch and fold the dough four times, then let it rise overnight.</p><p>Bake at 230 °C for 25 minutes until deep golden.</p>',
    ),
  ),
  '/library/': html(
    page(
      'Riverside Library',
      '<h1>Riverside Library</h1><p>Books, study rooms and free Wi-Fi.</p><p><a href="/library/membership">Membership</a> · <a href="/library/events">Events</a></p>',
    ),
  ),
  '/library/membership': html(
    page(
      'Membership | Riverside Library',
      '<h1>Membership</h1><p>Membership is free for residents of Riverside. Non-residents pay 30 EUR a year.</p>',
    ),
  ),
  '/library/events': html(page('Events', '<h1>Events</h1><p>Story time on Saturdays.</p>')),
  '/kettles/steel': html(
    page(
      'Steel kettle',
      `<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Steel Kettle 1.7 L</h1>
<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price" content="45.00">45 USD</span><meta itemprop="priceCurrency" content="USD"></div></div>`,
    ),
  ),
  '/kettles/glass': html(
    page(
      'Glass kettle',
      `<div itemscope itemtype="https://schema.org/Product"><h1 itemprop="name">Glass Kettle 1.5 L</h1>
<div itemprop="offers" itemscope itemtype="https://schema.org/Offer"><span itemprop="price" content="59.00">59 USD</span><meta itemprop="priceCurrency" content="USD"></div></div>`,
    ),
  ),
  '/brightwave/': html(
    page(
      'Brightwave Energy',
      '<h1>Brightwave Energy</h1><p>Offshore wind services.</p><p><a href="/brightwave/company">Company</a> · <a href="/brightwave/careers">Careers</a></p>',
    ),
  ),
  '/brightwave/company': html(
    page(
      'Company | Brightwave Energy',
      '<h1>Company</h1><p>Headquarters: Aarhus, Denmark. Offices in Hamburg and Aberdeen.</p><p>Brightwave employs 610 people.</p>',
    ),
  ),
  '/brightwave/careers': html(page('Careers', '<h1>Careers</h1><p>Join us.</p>')),
  '/garden/roses': html(
    page(
      'Caring for roses',
      '<h1>Caring for roses</h1><p>Prune roses in late winter, before new growth starts. Cut just above an outward-facing bud.</p>',
    ),
  ),
  '/garden/tomatoes': html(
    page('Growing tomatoes', '<h1>Growing tomatoes</h1><p>Tomatoes need six hours of sun a day.</p>'),
  ),
};
