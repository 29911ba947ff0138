import { parseDocument } from '../dom/parse-document.util';
import { htmlToMarkdown } from '../markdown/html-to-markdown.util';
import { extractMainContent } from './extract-main-content.util';
import { main, sentence } from './main-content-test.util';

const article = `<main><article><h1>Pruning fruit trees</h1>
  <p>${sentence('pruning')}</p><p>${sentence('cutting')}</p><p>${sentence('healing')}</p></article></main>`;

describe('extractMainContent: footers', () => {
  it('drops a footer-named block however much prose it holds (testimonials, an about blurb)', () => {
    const quotes = Array.from(
      { length: 8 },
      (_, i) => `<div><p>Customer ${i} says: ${sentence('service', 1)}</p><p>Name ${i}.</p></div>`,
    ).join('');
    const page = `${article}<div class="site-footer-mobile"><div class="footer-quotes">${quotes}</div></div>`;
    const markdown = main(page);
    expect(markdown).toContain('Pruning fruit trees');
    expect(markdown).not.toContain('Customer 3 says');
  });
});

describe('extractMainContent: customer reviews', () => {
  const review = (i: number) =>
    `<div class="review"><h4>Reviewer ${i}</h4><p>${sentence(`product number ${i}`, 1)}</p></div>`;
  const product = (reviewsClass: string) => `<main><div class="product"><h1>Garden shears</h1>
    <div class="description"><p>${sentence('blade', 3)}</p><p>${sentence('handle', 3)}</p></div>
    <section class="${reviewsClass}"><h2>What buyers think</h2>${[1, 2, 3, 4, 5].map(review).join('')}</section>
    </div></main>`;

  it('drops the customer reviews of a product page', () => {
    for (const name of ['reviews', 'product-reviews', 'reviews-section']) {
      const markdown = main(product(name));
      expect(markdown).toContain('The blade needs');
      expect(markdown).toContain('The handle needs');
      expect(markdown).not.toContain('Reviewer 3');
    }
  });

  it('keeps review posts: taxonomy classes name the topic of a post, not its role', () => {
    const post = (
      i: number,
    ) => `<div class="post category-reviews tag-product-reviews"><h2>Shears review ${i}</h2>
      <div class="review-body"><p>${sentence(`review ${i}`, 2)}</p></div></div>`;
    const markdown = main(
      `<main><h1>Reviews</h1><p>${sentence('intro', 2)}</p>${[1, 2, 3, 4].map(post).join('')}</main>`,
    );
    expect(markdown).toContain('The review 1 needs');
    expect(markdown).toContain('The review 4 needs');
  });
});

describe('extractMainContent: forum threads', () => {
  it("keeps the posts but drops each poster's card, signature and last-edited line", () => {
    const post = (i: number) => `<div class="post">
      <div class="user-details"><a href="/u/${i}">member${i}</a><span>Posts: 40${i}</span><span>Joined: May 201${i}</span></div>
      <div class="post-body"><p>Reply ${i}: ${sentence(`thread point ${i}`, 2)}</p></div>
      <div class="message-lastEdit">Last edited: 3 Jul 202${i}</div>
      <div class="post-signature">Signature ${i}: my rig, my rules, my other hobby project.</div></div>`;
    const markdown = main(`<main><h1>Which pump?</h1>${[1, 2, 3, 4].map(post).join('')}</main>`);
    expect(markdown).toContain('Reply 1: The thread point 1');
    expect(markdown).toContain('Reply 4: The thread point 4');
    for (const chrome of ['Posts: 402', 'Joined: May', 'Last edited', 'Signature 3']) {
      expect(markdown).not.toContain(chrome);
    }
  });
});

describe('extractMainContent: title and lead', () => {
  it('keeps a question that sits above the answers holding most of the text', () => {
    const answer = (i: number) => `<div class="answer"><p>Answer ${i}: ${sentence(`fix ${i}`, 3)}</p></div>`;
    const page = `<div id="content"><div id="question-header"><h1>How do I focus the file pane?</h1></div>
      <div id="mainbar"><div id="question"><p>Question body: ${sentence('keyboard focus', 2)}</p></div>
      <div id="answers"><h2>5 Answers</h2>${[1, 2, 3, 4, 5].map(answer).join('')}</div></div></div>`;
    const markdown = main(page);
    expect(markdown).toContain('How do I focus the file pane?');
    expect(markdown).toContain('Question body:');
    expect(markdown).toContain('Answer 5:');
  });

  it("keeps a story's deck with its title when the text column missed both, but not a blog's tagline", () => {
    const story = (head: string, og: string) =>
      `<!doctype html><html><head><title>Flood defences hold in Lowmarsh | The Courier</title>${og}</head><body>
      <div class="hero">${head}</div><nav><a href="/a">A</a> <a href="/b">B</a></nav>
      <div class="entry-content"><p>${sentence('levee', 3)}</p><p>${sentence('pump', 3)}</p><p>${sentence('gate', 3)}</p></div></body></html>`;
    const run = (html: string) => {
      const body = parseDocument(html).body;
      if (!body) throw new Error('no body');
      return htmlToMarkdown(extractMainContent(body) ?? body, { removeBase64Images: true });
    };
    const deck =
      'The new barrier kept the river out for three days, and the engineers say it can take a higher flood.';
    const markdown = run(
      story(
        `<h1>Flood defences hold in Lowmarsh</h1><h2 class="subhead">${deck}</h2>`,
        '<meta property="og:type" content="article">',
      ),
    );
    expect(markdown).toContain('# Flood defences hold in Lowmarsh');
    expect(markdown).toContain(deck);
    const tagline =
      'Notes on levees, pumps and gates from an engineer who has spent thirty years on the river.';
    const blog = run(story(`<h1>Flood defences hold in Lowmarsh</h1><h2>${tagline}</h2>`, ''));
    expect(blog).not.toContain(tagline);
  });
});

describe('extractMainContent: data tables', () => {
  it('keeps the rows of a data table even when every cell is a link', () => {
    const row = (year: number) =>
      `<tr><td><a href="/y/${year}">${year}</a></td><td><a href="/p/a${year}">Laureate A${year}</a></td>` +
      `<td><a href="/p/b${year}">Laureate B${year}</a></td><td><a href="/p/c${year}">Laureate C${year}</a></td>` +
      `<td>for work on topic ${year}</td></tr>`;
    const rows = Array.from({ length: 12 }, (_, i) => row(2001 + i)).join('');
    const page = `<nav><a href="/">Home</a><a href="/a">About</a><a href="/b">Blog</a></nav>
      <main><h1>List of laureates</h1><p>${sentence('prize', 3)}</p>
      <table><tr><th>Year</th><th>Physics</th><th>Chemistry</th><th>Medicine</th><th>Motivation</th></tr>${rows}</table></main>`;
    const markdown = main(page);
    expect(markdown).toContain('Laureate B2005');
    expect(markdown).toContain('Laureate C2012');
    expect(markdown).not.toContain('About');
  });

  it('keeps a sentence of links set in a <div>, drops a row of links', () => {
    const page = `<main><h1>Read it anywhere</h1><p>${sentence('epub', 3)}</p>
      <div><a href="/chart">More specific instructions can be found here</a>. You can <a href="/dl">download the file</a> (we have also linked to it from our <a href="/">home page</a>).</div>
      <div><a href="/a">Archive</a> <a href="/b">Authors</a> <a href="/c">Contact us</a> and more.</div></main>`;
    const markdown = main(page);
    expect(markdown).toContain('download the file');
    expect(markdown).not.toContain('Contact us');
  });
});

describe('extractMainContent: closed tabs and accordions', () => {
  it('keeps closed tab panes, accordion answers and panels a control opens, but not other hidden blocks', () => {
    const page = `<main><h1>Trail backpack</h1><p>${sentence('pack', 3)}</p>
      <div class="tabs"><div class="tab-nav">Overview</div><div class="tab-nav">Specs</div>
        <div class="tab-pane" style="display:block"><p>Overview: ${sentence('frame', 1)}</p></div>
        <div class="tab-pane" style="display:none"><p>Specs: volume 40 litres, weight 1.2 kg.</p></div></div>
      <div class="faq"><div class="faq-question">Q: Is it waterproof?</div>
        <div class="faq-answer" style="display: none;">A: Yes, the fabric is water-resistant and a rain cover is included.</div></div>
      <button aria-expanded="false" aria-controls="care">Care instructions</button>
      <div id="care" hidden><p>Care: wash by hand in cold water and dry in the shade.</p></div>
      <div style="display:none"><p>Secret promo: twenty percent off for the first hundred buyers today.</p></div></main>`;
    const markdown = main(page);
    expect(markdown).toContain('Specs: volume 40 litres');
    expect(markdown).toContain('A: Yes, the fabric is water-resistant');
    expect(markdown).toContain('Care: wash by hand');
    expect(markdown).not.toContain('Secret promo');
  });
});

describe('extractMainContent: asides', () => {
  it('keeps a prose aside inside the article, drops a link aside and the page-level aside', () => {
    const page = `<main><article><h1>Bread at home</h1><p>${sentence('dough', 3)}</p>
      <aside class="note"><p>Baker's note: ${sentence('starter', 5)}</p></aside>
      <aside><h3>Also on the site</h3><ul><li><a href="/a">Rye loaf</a></li><li><a href="/b">Bagels</a></li>
        <li><a href="/c">Focaccia</a></li></ul></aside>
      <p>${sentence('oven', 3)}</p></article></main>
      <aside><p>About this blog: ${sentence('blog', 4)}</p></aside>`;
    const markdown = main(page);
    expect(markdown).toContain("Baker's note:");
    expect(markdown).toContain('The oven needs');
    expect(markdown).not.toContain('Focaccia');
    expect(markdown).not.toContain('About this blog');
  });
});

describe('extractMainContent: teaser cards', () => {
  it('drops a row of cards whose title and "Learn more" lead to the same page under an article', () => {
    const card = (name: string) =>
      `<div><a href="/services/${name}"><p>${name}</p></a><p>What our ${name} team does for clients.</p>` +
      `<div><a href="/services/${name}">Learn More</a></div></div>`;
    const page = `<main><article><h1>Sector update</h1><p>${sentence('deal', 4)}</p><p>${sentence('market', 4)}</p>
      <section><h3>Our services</h3><div class="grid">${['Advisory', 'Banking', 'Valuation', 'Tax'].map(card).join('')}</div></section>
      </article></main>`;
    const markdown = main(page);
    expect(markdown).toContain('The market needs');
    expect(markdown).not.toContain('Valuation');
    expect(markdown).not.toContain('Learn More');
  });
});

describe('extractMainContent: what the main landmark holds', () => {
  it('keeps every paragraph of a main that holds only short lines besides one long one', () => {
    const markdown = main(
      '<header><nav><a href="/">Home</a> <a href="/a">About</a> <a href="/b">Blog</a></nav></header>' +
        '<main><p>UA=Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36</p>' +
        '<p>Language de-DE</p><p>Width 1440</p></main>',
    );
    expect(markdown).toContain('UA=Mozilla/5.0 (X11; Linux x86_64)');
    expect(markdown).toContain('Language de-DE');
    expect(markdown).toContain('Width 1440');
  });

  it('keeps the title and intro of a main dominated by a long list', () => {
    const items = Array.from(
      { length: 40 },
      (_, i) => `<li><a href="/tools/${i}">Tool number ${i}</a> does thing ${i} for you</li>`,
    ).join('');
    const markdown = main(
      '<header><nav><a href="/">Home</a> <a href="/a">About</a> <a href="/b">Blog</a></nav></header>' +
        `<main><h1>The big list of tools</h1><p>Every tool we use, with a short note on each.</p><ul>${items}</ul></main>` +
        '<footer><p>© Example Ltd</p></footer>',
    );
    expect(markdown.match(/# The big list of tools/g)).toHaveLength(1);
    expect(markdown).toContain('Every tool we use');
    expect(markdown).toContain('Tool number 39');
    expect(markdown).not.toContain('© Example');
  });
});

describe('extractMainContent: furniture under a heading among the text', () => {
  it('drops a comments heading and the comments after it, keeping the article above', () => {
    const comments = Array.from(
      { length: 6 },
      (_, i) => `<p>${sentence(`reader view ${i}`, 1)}</p><p>Posted by: Reader ${i} | Apr 6, 2007</p>`,
    ).join('');
    const markdown = main(
      `<div class="content"><h2>A long day</h2><p>${sentence('day', 3)}</p><p>${sentence('night', 3)}</p>` +
        `<h3>Comments</h3>${comments}</div>`,
    );
    expect(markdown).toContain('The night needs');
    expect(markdown).not.toContain('Comments');
    expect(markdown).not.toContain('Reader 5');
  });

  it('drops only the share widget under a "Share" heading, not the text after it', () => {
    const markdown = main(
      `<article><h1>Frittata</h1><p>${sentence('eggs', 3)}</p>` +
        '<div class="buttons"><h4>Share</h4><a href="https://t.example/share">Tweet</a></div>' +
        `<p>${sentence('onions', 3)}</p></article>`,
    );
    expect(markdown).toContain('The eggs needs');
    expect(markdown).toContain('The onions needs');
    expect(markdown).not.toContain('Tweet');
  });
});

describe('extractMainContent: captions', () => {
  it('drops the caption and credit lines of pictures, keeping the pictures', () => {
    const markdown = main(
      `<article><h1>Harbour</h1><figure><img src="/a.jpg" alt="boats"><figcaption>Boats at dawn. Photo: J. Doe</figcaption></figure>` +
        `<p>${sentence('harbour', 3)}</p><div class="wp-caption"><img src="/b.jpg" alt="pier">` +
        `<p class="wp-caption-text">The old pier.</p></div><p>${sentence('pier', 3)}</p></article>`,
    );
    expect(markdown).toContain('![boats]');
    expect(markdown).toContain('![pier]');
    expect(markdown).not.toContain('Boats at dawn');
    expect(markdown).not.toContain('The old pier.');
  });

  it('keeps captions that are the text of a gallery', () => {
    const slides = Array.from(
      { length: 6 },
      (_, i) =>
        `<figure><img src="/s${i}.jpg" alt=""><figcaption>Costume ${i}: ${sentence(`costume ${i}`, 1)}</figcaption></figure>`,
    ).join('');
    const markdown = main(`<article><h1>Costumes</h1><p>Ideas for this year.</p>${slides}</article>`);
    expect(markdown).toContain('Costume 5:');
  });
});

describe('extractMainContent: menus', () => {
  it('drops a mega menu whose entries carry long descriptions', () => {
    const entry = (i: number) =>
      `<li class="menu-item"><a href="/p${i}">Page ${i}<small>${sentence(`menu entry ${i}`, 8)}</small></a></li>`;
    const markdown = main(
      `<div id="header"><div id="primary_menu"><ul id="menu-main-menu">${[1, 2, 3].map(entry).join('')}</ul></div></div>` +
        `<div id="content"><div class="entry"><p>${sentence('keeper', 2)}</p></div></div>`,
    );
    expect(markdown).toContain('The keeper needs');
    expect(markdown).not.toContain('menu entry 2');
  });
});

describe('extractMainContent: sidebars and camel-case names', () => {
  const recent = (i: number) =>
    `<li><a href="/r${i}">Recent post ${i}</a><p>${sentence(`recent excerpt ${i}`, 2)}</p></li>`;

  it('drops a sidebar of post excerpts beside the content, however much prose it holds', () => {
    const markdown = main(
      `<div class="wrapper"><div id="content"><div class="post"><p>${sentence('roundup', 2)}</p></div>` +
        `<div class="post-comments"><ol class="commentlist">${[1, 2, 3].map((i) => `<li><p>${sentence(`comment ${i}`, 3)}</p></li>`).join('')}</ol></div></div>` +
        `<div id="sidebar"><div class="widget"><ul>${[1, 2, 3].map(recent).join('')}</ul></div></div></div>`,
    );
    expect(markdown).toContain('The roundup needs');
    expect(markdown).not.toContain('recent excerpt 2');
    expect(markdown).not.toContain('comment 2');
  });

  it('reads camel-case names: postComments is a comments block', () => {
    const markdown = main(
      `<div id="contentBody"><div class="storyText"><p>${sentence('story', 3)}</p></div>` +
        `<div id="postComments">${[1, 2, 3, 4].map((i) => `<div><p>${sentence(`reader ${i}`, 3)}</p></div>`).join('')}</div></div>`,
    );
    expect(markdown).toContain('The story needs');
    expect(markdown).not.toContain('reader 3');
  });
});

describe('extractMainContent: the page title', () => {
  const body = `<div class="entry-content"><p>${sentence('title', 4)}</p><p>${sentence('heading', 4)}</p></div>`;

  it('includes the title heading that sits above the text, once', () => {
    const markdown = main(
      `<header><a class="logo" href="/"><h1>Example Site</h1></a></header>` +
        `<div class="wrap"><div class="page-head"><h1>Water in the desert</h1></div>${body}` +
        '<div class="aside-links"><a href="/a">A</a> <a href="/b">B</a> <a href="/c">C</a></div></div>',
    );
    expect(markdown.match(/^# Water in the desert$/gm)).toHaveLength(1);
    expect(markdown).not.toContain('Example Site');
    expect(markdown).toContain('The heading needs');
  });

  it('does not repeat a title the text already carries', () => {
    const markdown = main(
      `<div class="wrap"><div class="page-head"><h1>Water in the desert</h1></div>` +
        `<div class="entry-content"><h2>Water in the desert</h2><p>${sentence('title', 4)}</p><p>${sentence('heading', 4)}</p></div></div>`,
    );
    expect(markdown.match(/Water in the desert/g)).toHaveLength(1);
  });
});

describe('extractMainContent: the story, not the column around it', () => {
  const page = (title: string, bodyHtml: string) => {
    const document = parseDocument(
      `<!doctype html><html><head><title>${title}</title></head><body>${bodyHtml}</body></html>`,
    );
    const body = document.body;
    if (!body) throw new Error('no body');
    return htmlToMarkdown(extractMainContent(body) ?? body, { removeBase64Images: true });
  };
  const story = `<article><h1>Night trains return</h1><p>${sentence('timetable', 3)}</p><p>${sentence('sleeper car', 3)}</p></article>`;

  it('takes the one article holding most of the text, without the discussion and notes beside it', () => {
    const markdown = page(
      'Night trains return',
      `<div id="page">${story}<div class="discussion"><p>Reader one wrote: ${sentence('complaint', 3)}</p></div>` +
        `<div class="policy"><p>By providing information about events this site does not endorse them. ${sentence('disclaimer', 1)}</p></div></div>`,
    );
    expect(markdown).toContain('The timetable needs');
    expect(markdown).toContain('The sleeper car needs');
    expect(markdown).not.toContain('Reader one wrote');
    expect(markdown).not.toContain('does not endorse');
  });

  it('keeps every post of a thread whose posts are sibling articles', () => {
    const post = (i: number, n: number) =>
      `<article class="message"><p>Post ${i}: ${sentence(`reply ${i}`, n)}</p></article>`;
    const markdown = page(
      'Thread',
      `<div id="thread"><h1>Thread</h1>${post(1, 6)}${post(2, 1)}${post(3, 1)}</div>`,
    );
    expect(markdown).toContain('Post 1:');
    expect(markdown).toContain('Post 3:');
  });

  it("narrows a blog's three columns to the post under the page's title", () => {
    const widget = (name: string) => `<div class="box"><h3>${name}</h3><p>${sentence(name, 2)}</p></div>`;
    const markdown = page(
      'Quiet streets at night | A city blog',
      `<table id="layout"><tr><td id="left">${widget('about me')}</td>` +
        `<td id="middle"><div class="post"><h2>Quiet streets at night</h2><p>${sentence('lamp', 3)}</p><p>${sentence('street', 3)}</p></div></td>` +
        `<td id="right">${widget('archive note')}</td></tr></table>`,
    );
    expect(markdown).toContain('Quiet streets at night');
    expect(markdown).toContain('The lamp needs');
    expect(markdown).not.toContain('The about me needs');
    expect(markdown).not.toContain('The archive note needs');
  });

  it("takes a blog post's title from the heading that says the <title>'s headline, not the blog's name in the <h1>", () => {
    const markdown = page(
      "Ann's Notes: The importance of going first",
      '<div id="banner"><h1><a href="http://example.com/notes/">Ann\'s Notes</a></h1></div>' +
        '<div class="entry"><h3 class="entry-header">The importance of going first</h3>' +
        `<div class="entry-content"><div class="entry-body"><p>${sentence('novel', 3)}</p><p>${sentence('typist', 3)}</p></div></div></div>`,
    );
    expect(markdown.match(/The importance of going first/g)).toHaveLength(1);
    expect(markdown).not.toContain("Ann's Notes");
    expect(markdown).toContain('The typist needs');
  });

  it("takes the post's title from a header band that says the <title>'s headline, not a site tagline", () => {
    const text = `<div class="post-body"><p>${sentence('sermon', 3)}</p><p>${sentence('psalm', 3)}</p></div>`;
    const banner = `<header role="banner" class="page_title"><h1>The Sovereignty of God in Hard Times</h1></header>`;
    const markdown = page(
      'The Sovereignty of God in Hard Times | Desiring Truth',
      `<header><nav><a href="/">Home</a> <a href="/blog">Blog</a></nav></header>${banner}${text}`,
    );
    expect(markdown.match(/^# The Sovereignty of God in Hard Times$/gm)).toHaveLength(1);
    const byline = page(
      'Rhapsody for Android updated with new picks | Android Central',
      `<div class="title-byline"><h1 class="title">Rhapsody for Android updated with new picks</h1><span>by Jerry</span></div>${text}`,
    );
    expect(byline.match(/^# Rhapsody for Android updated with new picks$/gm)).toHaveLength(1);
    const tagline = page(
      'Goodbye for now | A market for good living',
      `<header><h2 class="site-description">A market for good living</h2></header>${text}`,
    );
    expect(tagline).not.toContain('A market for good living');
    expect(tagline).toContain('The psalm needs');
  });

  it("passes over the part of the <title> that is the blog's name, when both parts are as long", () => {
    const markdown = page(
      'Life as a Healthcare CIO: Cool Technology of the Week',
      "<div class='header'><h1 class='title'><a href='http://blog.example/'>Life as a Healthcare CIO</a></h1></div>" +
        `<div class='post'><h3 class='post-title'>Cool Technology of the Week</h3>` +
        `<div class='post-body'><p>${sentence('puffball', 3)}</p><p>${sentence('orchard', 3)}</p></div></div>` +
        `<div class='sidebar'><ul><li><a href='/a'>Cool Technology of the Week</a></li><li><a href='/b'>Older post</a></li></ul></div>`,
    );
    expect(markdown.match(/Cool Technology of the Week/g)).toHaveLength(1);
    expect(markdown).not.toContain('Life as a Healthcare CIO');
    expect(markdown).toContain('The orchard needs');
  });

  it('takes a header band heading that says all of a short <title> headline and a few words more', () => {
    const markdown = page(
      'Noble Toy Company | Atlanta - DailyCandy',
      `<header><a href="/atlanta/"><h1>DailyCandy</h1></a><nav><a href="/">Home</a></nav>` +
        `<hgroup><h1>Noble Toy Company Brings It Home</h1></hgroup></header>` +
        `<article><p>${sentence('maple block', 3)}</p><p>${sentence('puzzle', 3)}</p></article>`,
    );
    expect(markdown.match(/^# Noble Toy Company Brings It Home$/gm)).toHaveLength(1);
    expect(markdown).not.toContain('DailyCandy');
  });

  it("does not take a post's category classes for a site title's", () => {
    const markdown = page(
      'Stand above the crowd | Personal Branding Blog',
      `<div class="post category-personal-branding tag-branding"><h1 class="entry-title">Stand above the crowd</h1>` +
        `<div class="sidebar-note"><p>${sentence('note', 1)}</p></div>` +
        `<div class="entry-content"><p>${sentence('follow-up', 3)}</p><p>${sentence('letter', 3)}</p></div></div>`,
    );
    expect(markdown.match(/^# Stand above the crowd$/gm)).toHaveLength(1);
  });
});

describe('extractMainContent: repeated sections', () => {
  const feature = (name: string) => `<div><h3>${name}</h3><p>Plan the ${name} with your team.</p></div>`;
  const features = ['Canvas', 'Docs', 'Tables', 'Slides', 'Diagrams', 'Blueprints', 'Integrations'];
  const section = `<section><h2>What you get</h2>${features.map(feature).join('')}</section>`;
  const count = (text: string, part: string) => text.split(part).length - 1;

  it('keeps one copy of a section a site builder repeats per screen size, however short its lines', () => {
    const page = `<main><h1>Plan together</h1><p>${sentence('plan')}</p>
      <div class="desktop">${section}</div><div class="tablet">${section}</div><div class="phone">${section}</div></main>`;
    const markdown = main(page);
    expect(count(markdown, 'Plan the Blueprints with your team.')).toBe(1);
    expect(markdown).toContain('Plan together');
  });

  it('keeps an example shown twice in documentation, and the same entry in two lists', () => {
    const example = `<div class="example"><p>Run it:</p><pre><code>${'quarry scrape https://example.com --format markdown\n'.repeat(5)}</code></pre></div>`;
    const entry = `<li>Supplies – $636<ul><li>${sentence('estimate', 2)}</li></ul></li>`;
    const page = `<main><h1>Usage</h1><p>${sentence('usage')}</p>${example}<p>${sentence('again')}</p>${example}
      <h2>Full time</h2><ul><li>Tuition – $300</li>${entry}</ul><h2>Part time</h2><ul><li>Tuition – $150</li>${entry}</ul></main>`;
    const markdown = main(page);
    expect(count(markdown, 'Run it:')).toBe(2);
    expect(count(markdown, 'Supplies – $636')).toBe(2);
  });
});
