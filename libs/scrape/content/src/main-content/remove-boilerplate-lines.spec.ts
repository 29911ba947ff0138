import { parseDocument } from '../dom/parse-document.util';
import { removeBoilerplateLines } from './remove-boilerplate-lines.util';

function sut(bodyHtml: string): string {
  const body = parseDocument(`<body>${bodyHtml}</body>`).body;
  if (!body) throw new Error('no body');
  removeBoilerplateLines(body);
  return body.textContent ?? '';
}

const paragraph = (topic: string) =>
  `<p>The ${topic} was measured twice over the summer, once in June and once in August, and both readings agreed within a few percent of each other, which the survey team had not expected after the dry spring.</p>`;

describe('removeBoilerplateLines', () => {
  it('drops ad labels, share and print lines, tag lines, counters and copyright lines anywhere', () => {
    const text = sut(
      `${paragraph('river')}<div>Advertisement</div><p>Share | Tweet | Email</p>${paragraph('lake')}` +
        '<p>Tags: rivers, lakes, water</p><span>Hits: 2854</span><p>Copyright 2012 Example News. All rights reserved.</p>',
    );
    expect(text).toContain('The river was measured');
    expect(text).toContain('The lake was measured');
    for (const gone of ['Advertisement', 'Tweet', 'Tags:', 'Hits', 'Copyright'])
      expect(text).not.toContain(gone);
  });

  it('drops a byline and a date line heading or tailing an article, but keeps a date inside the text', () => {
    const text = sut(
      '<p>By Jane Doe</p><p>July 24, 2012 12:11 AM</p>' +
        `${paragraph('river')}<p>November 28, 1967</p>${paragraph('lake')}<p>Posted by jane on Apr 6, 2007</p>`,
    );
    expect(text).not.toContain('Jane Doe');
    expect(text).not.toContain('July 24, 2012');
    expect(text).not.toContain('Posted by jane');
    expect(text).toContain('November 28, 1967');
  });

  it('keeps lines that merely start alike, and dates heading a schedule', () => {
    const text = sut(
      `${paragraph('river')}<p>Share prices rose by four percent on Monday.</p>${paragraph('lake')}` +
        '<h2>Sunday, February 8, 2026</h2><table><tr><td>Seattle</td><td>New England</td></tr></table>',
    );
    expect(text).toContain('Share prices rose');
    expect(text).toContain('Sunday, February 8, 2026');
  });

  it('drops print-edition, reprint and filing notes and share prompts, keeping sentences that mention them', () => {
    const text = sut(
      `${paragraph('river')}<p>LIKE IT? SHARE IT!</p>${paragraph('lake')}` +
        '<p>A version of this article appeared in print on 11/06/2012, on page D6 of the New York edition.</p>' +
        '<p>See a sample reprint in PDF format.</p>' +
        '<p>This entry was posted on August 9, 2012 at 3:32 pm and is filed under Car Reviews. You can follow any responses to this entry through the RSS 2.0 feed.</p>' +
        '<p>A version of the survey will be repeated next year.</p>',
    );
    expect(text).toContain('The lake was measured');
    for (const gone of ['SHARE IT', 'appeared in print', 'sample reprint', 'filed under'])
      expect(text).not.toContain(gone);
    expect(text).toContain('A version of the survey will be repeated');
  });

  it('drops picture credit and source lines, in several languages', () => {
    const text = sut(
      `${paragraph('river')}<p>(Foto: Tony Silva/Ascom-PC)</p><p>Photo: Chris Ocken / Courtesy of the maker</p>` +
        `${paragraph('lake')}<p>Quelle: Landesregierung</p><p>Beitrag teilen</p><p>Photos of the river were taken by the team.</p>`,
    );
    for (const gone of ['Foto:', 'Chris Ocken', 'Quelle:', 'Beitrag teilen'])
      expect(text).not.toContain(gone);
    expect(text).toContain('Photos of the river were taken');
  });

  it('drops feedback and rating prompts and recipe tools, keeping sentences that ask alike', () => {
    const text = sut(
      `${paragraph('river')}<p>War der Artikel nützlich?</p><p>Was this article helpful?</p>` +
        `<span>(Noch keine Bewertungen)</span><p>Rezept drucken</p><p>Pinnen</p>${paragraph('lake')}` +
        '<p>Was this article helpful to the committee, which had asked for it in May?</p>',
    );
    for (const gone of ['nützlich', 'Was this article helpful?', 'Bewertungen', 'drucken', 'Pinnen'])
      expect(text).not.toContain(gone);
    expect(text).toContain('helpful to the committee');
  });

  it('drops newsletter pitches in the text, keeping sentences that report on a newsletter', () => {
    const text = sut(
      `${paragraph('river')}<p><em>Want more? Sign up for our weekly newsletter and get the best stories.</em></p>` +
        `<p>Lust auf mehr? Melde dich hier für unseren Newsletter an.</p>${paragraph('lake')}` +
        '<p>The council said residents could subscribe to its newsletter for flood warnings.</p>',
    );
    expect(text).not.toContain('weekly newsletter');
    expect(text).not.toContain('Lust auf mehr');
    expect(text).toContain('subscribe to its newsletter');
  });

  it('drops credit lines without a colon, captions ending in an agency credit, letter prompts and support appeals', () => {
    const text = sut(
      `${paragraph('river')}<p>Advertisement:</p><p>Photograph by Ed Marshall, Redonda Restoration Programme</p>` +
        '<p>Marco Odermatt, Ski-Star aus der Schweiz. © AFP / MARCO BERTORELLO</p>' +
        `${paragraph('lake')}<p>We want to hear what you think about this article. Submit a letter to the editor.</p>` +
        '<p>If you enjoyed reading this post – would you consider supporting our work? Just click here. Thanks!</p>' +
        '<p>Photographs by the survey team are in the appendix, with the dates they were taken.</p>' +
        '<p>If you enjoyed reading this post, the second part follows next week.</p>',
    );
    for (const gone of [
      'Advertisement',
      'Ed Marshall',
      'BERTORELLO',
      'Submit a letter',
      'supporting our work',
    ])
      expect(text).not.toContain(gone);
    expect(text).toContain('Photographs by the survey team');
    expect(text).toContain('the second part follows');
  });

  it('drops sign-up calls, follow-us lines and licence notes, keeping sentences that mention the networks', () => {
    const text = sut(
      `${paragraph('river')}<p><em>Do you want to be informed of our actions? Sign up here</em></p>` +
        '<p>Puede escribirnos a redaccion@example.org o seguir a Materia en Facebook, Twitter, Instagram</p>' +
        `${paragraph('lake')}<p>Sofern nicht anders ausgewiesen, stehen Inhalte dieser Website unter CC-BY</p>` +
        '<p>Now if you follow me on Twitter or Facebook then you know who I like.</p>' +
        '<p>Will the council act? Sign up here was the slogan of the volunteers who filled the sandbags in the rain.</p>',
    );
    for (const gone of ['informed of our actions', 'Materia en Facebook', 'CC-BY'])
      expect(text).not.toContain(gone);
    expect(text).toContain('follow me on Twitter');
    expect(text).toContain('the slogan of the volunteers');
  });

  it('drops affiliate disclosures, shop and register buttons, disclaimers and lone date labels', () => {
    const text = sut(
      `${paragraph('river')}<p>*Affiliatelink</p><p>Bei den Verlinkungen handelt es sich um Affiliate-Links: Kaufen Sie darüber, erhalten wir eine Provision.</p>` +
        `<p>Zum Shop</p><p>Jetzt registrieren</p>${paragraph('lake')}<p>Alle Angaben ohne Gewähr</p><p>Aktualisiert:</p>` +
        '<p>Affiliate marketing is a performance-based exercise that enables pay-per-sale compensation within a network.</p>',
    );
    for (const gone of [
      'Affiliatelink',
      'Verlinkungen',
      'Zum Shop',
      'registrieren',
      'ohne Gewähr',
      'Aktualisiert',
    ])
      expect(text).not.toContain(gone);
    expect(text).toContain('Affiliate marketing is a performance-based');
  });

  it('drops a row of recipe buttons, a disclaimer in parentheses and a closing "Publiziert" date', () => {
    const text = sut(
      `<p>Zum Rezept Drucken Pinne</p>${paragraph('cake')}${paragraph('lemon')}` +
        '<p>(Alle Angaben ohne Gewähr)</p><p>Publiziert: 03.04.2020, 12:35</p>',
    );
    for (const gone of ['Pinne', 'Gewähr', 'Publiziert']) expect(text).not.toContain(gone);
    expect(text).toContain('The lemon was measured');
  });

  it('drops a heading or two that end the text with nothing under them, not a list of titles', () => {
    const ending = sut(
      `${paragraph('river')}${paragraph('lake')}<h2>Jason recommends these amazing posts:</h2>`,
    );
    expect(ending).toContain('The lake was measured');
    expect(ending).not.toContain('recommends');
    const titles = sut(
      `${paragraph('river')}<h3>Spring survey</h3><h3>Summer survey</h3><h3>Autumn survey</h3>`,
    );
    expect(titles).toContain('Autumn survey');
    const headings = sut('<h2>Rivers</h2><h2>Lakes</h2>');
    expect(headings).toContain('Lakes');
  });
});
