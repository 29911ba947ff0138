import { main, sentence } from './main-content-test.util';

describe('extractMainContent: promo lines', () => {
  it('drops "Also read:" lines set between the paragraphs, keeps sentences that merely start alike', () => {
    const page = `<main><article><h1>Ten days in Kyoto</h1><p>${sentence('temple', 3)}</p>
      <p><strong>Also read:</strong> <a href="/osaka">Two days in Osaka on a budget</a></p>
      <p>${sentence('garden', 3)}</p>
      <p>READ MORE: <a href="/nara">Feeding the deer of Nara</a></p>
      <p>Related: the <a href="/rail">rail pass</a> pays for itself after two long trips, as the figures below show.</p>
      <p>${sentence('market', 3)}</p></article></main>`;
    const markdown = main(page);
    expect(markdown).toContain('The garden needs');
    expect(markdown).not.toContain('Two days in Osaka');
    expect(markdown).not.toContain('Feeding the deer');
    expect(markdown).toContain('pays for itself');
  });

  it('drops promo lines labelled in other languages and WordPress cards of other posts', () => {
    const page = `<main><article><h1>Zehn Tage in Kyoto</h1><p>${sentence('temple', 3)}</p>
      <p><em><strong>Auch lesen: </strong></em><a href="/osaka">Zwei Tage in Osaka</a></p>
      <p>${sentence('garden', 3)}</p>
      <p>Veja também: <a href="/nara">Os cervos de Nara</a></p>
      <p><strong>Schon gelesen?</strong></p>
      <blockquote class="wp-embedded-content"><p><a href="/tokio">Eine Nacht in Tokio</a></p></blockquote>
      <p>${sentence('market', 3)}</p></article></main>`;
    const markdown = main(page);
    expect(markdown).toContain('The market needs');
    expect(markdown).not.toContain('Zwei Tage in Osaka');
    expect(markdown).not.toContain('Os cervos de Nara');
    expect(markdown).not.toContain('Eine Nacht in Tokio');
  });

  it('drops a card linking to another post that opens with a label of its own, keeps a plain link card', () => {
    const page = `<main><article><h1>Heizen mit Holz</h1><p>${sentence('stove', 3)}</p>
      <div><a class="internal-link" href="/pellets"><figure><img src="/p.jpg" alt=""></figure>
        <div><div class="internal-link-title">Mehr zum Thema</div><h2>So heizen Sie effizient mit Pellets</h2></div></a></div>
      <p>${sentence('chimney', 3)}</p>
      <div><a href="/guide"><div>Der ganze Leitfaden</div><h2>Holz richtig lagern, Schritt für Schritt</h2></a></div>
      </article></main>`;
    const markdown = main(page);
    expect(markdown).toContain('The chimney needs');
    expect(markdown).not.toContain('Mehr zum Thema');
    expect(markdown).not.toContain('effizient mit Pellets');
    expect(markdown).toContain('Holz richtig lagern');
  });

  it('drops sections under "Comments:", "Got something to say?", "Weitere …tipps" and "Featured insights" headings', () => {
    const links = (prefix: string) =>
      `<ul>${[1, 2, 3].map((i) => `<li><a href="/${prefix}${i}">${prefix} tour number ${i}</a></li>`).join('')}</ul>`;
    const page = `<main><article><h1>Stockholm im Herbst</h1><p>${sentence('harbour', 3)}</p>
      <p>${sentence('island', 3)}</p>
      <h3>Weitere Tourentipps in Schweden</h3>${links('Schweden')}
      <h3>Comments:</h3><div><p>Great post, thanks a lot!</p><p>Posted by Anna at 10:02</p></div>
      <h3>Got something to say?</h3><form><textarea></textarea><p>Your name</p></form>
      <h2>Featured insights</h2><div><a href="/i1"><p>SURVEY</p><h3>Ten trends in travel</h3></a></div>
      </article></main>`;
    const markdown = main(page);
    expect(markdown).toContain('The island needs');
    for (const gone of [
      'Tourentipps',
      'Schweden tour',
      'Comments:',
      'Great post',
      'Got something to say',
      'Ten trends',
    ])
      expect(markdown).not.toContain(gone);
  });

  it('drops a "More articles" section after a short text even when the teasers outweigh the text', () => {
    const teasers = Array.from(
      { length: 6 },
      (_, i) =>
        `<li><a href="/story-${i}"><p>Ressort</p><p><strong>Story ${i}</strong></p><span>${sentence(`teaser ${i}`, 1)}</span></a></li>`,
    ).join('');
    const page = `<header><a href="/">Home</a></header><main>
      <article><h1>Studierende suchen Zimmer</h1><p>${sentence('room', 3)}</p><p>${sentence('rent', 2)}</p></article>
      <section class="row"><div class="column"><div class="box"><h2>Weitere Artikel</h2></div></div>
        <div class="column"><ul>${teasers}</ul></div></section></main>`;
    const markdown = main(page);
    expect(markdown).toContain('The rent needs');
    expect(markdown).not.toContain('Weitere Artikel');
    expect(markdown).not.toContain('Story 3');
  });

  it('drops the links a bold or heading-styled label introduces, keeps a label that titles text', () => {
    const links = (prefix: string) =>
      `<ul>${[1, 2, 3].map((i) => `<li><a href="/${prefix}${i}">${prefix} story number ${i}</a></li>`).join('')}</ul>`;
    const page = `<main><article><h1>Compost at home</h1><p>${sentence('heap', 3)}</p>
      <p><strong>Recommended configuration</strong></p><p>${sentence('bin', 2)}</p>
      <p>${sentence('worm', 3)}</p>
      <p><strong>Mehr zum Thema</strong></p>${links('Garten')}
      <section class="box"><span class="headline">Related articles</span>${links('Soil')}</section>
      </article></main>`;
    const markdown = main(page);
    expect(markdown).toContain('Recommended configuration');
    expect(markdown).toContain('The bin needs');
    expect(markdown).toContain('The worm needs');
    expect(markdown).not.toContain('Mehr zum Thema');
    expect(markdown).not.toContain('Garten story');
    expect(markdown).not.toContain('Soil story');
  });

  it('stays linear on a page of thousands of labelled sections (each label is not checked against every heading)', () => {
    const page = (n: number) =>
      `<main><article><h1>Index</h1>${Array.from(
        { length: n },
        (_, i) =>
          `<div><p><strong>Related</strong></p><ul><li><a href="/x${i}">x ${i}</a></li></ul><h3>Part ${i}</h3><p>${sentence(`part ${i}`, 1)}</p></div>`,
      ).join('')}</article></main>`;
    const time = (n: number) => {
      const html = page(n);
      const started = performance.now();
      main(html);
      return performance.now() - started;
    };
    time(400); // warm-up
    const small = Math.min(time(400), time(400), time(400));
    const large = Math.min(time(3200), time(3200));
    // Eight times the page: about eight times the work, where a scan of every heading per label
    // would do 64 times (the 4x ratio it replaced measured 7.1-11, linear 2.4-3.3, and once 6.1 on a
    // loaded machine: the wider step keeps the two apart under load).
    expect(large / small).toBeLessThan(24);
  });
});
