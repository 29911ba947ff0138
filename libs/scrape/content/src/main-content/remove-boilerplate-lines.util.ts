import type { DomElement } from '../dom/dom.types';
import { isElement, tagOf } from '../dom/dom.types';
import { collapsedSpace, visibleLength } from '../dom/visible-length.util';

/**
 * Lines that are page furniture wherever they sit, by what they say: ad labels, share buttons,
 * print/e-mail links, view counters, tag and category lines, copyright lines, "back to top",
 * previous/next links, "read more" links, comment counters. Matched on a whole line (a leaf block),
 * whitespace collapsed.
 */
const FURNITURE_LINE = new RegExp(
  [
    String.raw`^(?:advertisement|advertisements|advert|anzeige|werbung|publicité|publicidad|pubblicità|sponsored(?: content)?|paid content|ad)\s*:?$`,
    String.raw`^(?:(?:share|share this(?: article| story| post| page)?|share on \w+|tweet|pin it|pin|email|e-mail|mail|print|print this(?: article| page)?|whatsapp|facebook|twitter|linkedin|reddit|pinterest|copy link|like|comment|save)\s*[:|·•,/-]?\s*)+$`,
    String.raw`^(?:copyright|©|\(c\))\s*(?:\d{4}|[^.]{0,80}all rights reserved|.{0,120}$)`,
    String.raw`^.{0,80}all rights reserved\.?$`,
    String.raw`^(?:tags?|tagged(?: with)?|tagged as|filed under|filed in|posted in|categories|category|topics?|keywords|schlagwörter|schlagworte|themen|étiquettes|etiquetas)\s*:.{0,200}$`,
    String.raw`^(?:«\s*)?(?:previous|next|prev|older|newer)(?: (?:article|post|story|entry|page|posts|entries))?(?:\s*»)?$`,
    String.raw`^(?:back to top|top of page|scroll to top|go to top|nach oben|zurück nach oben)$`,
    String.raw`^(?:read more|continue reading|read the full (?:story|article)|weiterlesen|mehr lesen|lire la suite|leer más)\b.{0,60}$`,
    String.raw`^(?:\d+\s+)?(?:comments?|kommentare?|commentaires?|comentarios?|responses?|replies)(?:\s*\(\d+\))?$`,
    String.raw`^(?:hits|views|reads|aufrufe|clicks)\s*:?\s*[\d,.\s]+$`,
    String.raw`^(?:search this (?:blog|site)|follow this blog|follow us|subscribe to (?:this blog|our newsletter|posts)|save stories|save for later|bookmark(?: this)?)$`,
    String.raw`^loading(?:\.\.\.|…| slideshow| comments)?$`,
    // Print-edition, reprint and filing notes under a story.
    String.raw`^a version of this (?:article|story|review|column|essay) (?:appeared|appears|was published)\b`,
    String.raw`^(?:[\w ]{0,30} reprints: this copy is for your personal|see a sample reprint|order (?:a )?reprints?\b)`,
    String.raw`^this (?:entry|post|article|story) was (?:posted|published|filed)\b.{0,200}(?:filed under|category|categories|responses|trackback|permalink)`,
    String.raw`^(?:like (?:it|this|what you (?:read|see))\?\s*)?share (?:it|this)!?$`,
    String.raw`^(?:get|follow) (?:our|the) .{0,40} (?:via|on) (?:facebook|twitter|instagram)$`,
    String.raw`^in (?:association|partnership) with$`,
    // Credit lines of pictures and sources, in the languages of the pages measured.
    String.raw`^\(?(?:fotos?|photos?|bild(?:er)?|images?|credits?|crédits?(?: photos?)?|crédito|titelbild|photograph(?:ed)? by|picture|quelle|quellen|fuente)\s*:.{0,80}\)?$`,
    String.raw`^(?:photo(?:graph)?|picture|image|illustration|video)s? (?:by|courtesy(?: of)?)\s+[^.!?]{2,80}$`,
    // A caption line that ends in its agency credit: "Marco Odermatt in Peking. © AFP / MARCO BERTORELLO".
    String.raw`^.{0,140}[.!?)]\s+(?:©|\(c\))\s*[a-zà-ÿ][^.!?]{1,60}$`,
    String.raw`^(?:beitrag|artikel|seite|post|article|rezept) (?:teilen|empfehlen|drucken)|^jetzt (?:teilen|kommentieren)!?$|^(?:(?:zum rezept|rezept drucken|teilen|drucken|merken|pinnen?)\s*[|·•]?\s*)+$|^print (?:this )?recipe$`,
    // Newsletter pitches set in the text: "Sign up for our newsletter…", "Melde dich hier für unseren Newsletter an".
    String.raw`^(?=.*\b(?:our|unseren?|unsere[mn]?|notre|nos|nuestro|nuestros|nossa|nosso)\s+(?:\S+\s+){0,3}newsletter)(?=.*(?:sign up|sign-up|subscribe|abonnier|anmelden|melde dich|registrier|inscri|suscr|assine|iscriv)).{0,250}$`,
    // Feedback and rating prompts under a text.
    String.raw`^(?:was this (?:article|page|post|story) (?:helpful|useful)|(?:war|ist) (?:der|dieser) (?:artikel|beitrag|text) (?:hilfreich|nützlich)|möchten sie (?:den|diesen) (?:artikel|beitrag) teilen|¿?te (?:ha )?(?:sido|resultó) útil(?: este artículo)?|cet article vous a-t-il été utile)\s*\??$`,
    String.raw`^\(?(?:noch )?keine bewertungen?(?: vorhanden)?\)?$|^\(?no (?:ratings|reviews|votes) yet\)?$`,
    String.raw`^(?:we(?:'d| would)? (?:want|like|love) to hear what you think|tell us what you think|what do you think\?).{0,150}(?:letter|comment|e-?mail|write to|submit)`,
    // Affiliate disclosures: "*Affiliatelink", "Bei den Verlinkungen handelt es sich um Affiliate-Links…".
    String.raw`^\W{0,3}(?:affiliate[- ]?links?|werbelinks?|provisionslinks?|anzeige|werbung)\W{0,3}$`,
    String.raw`^(?=.{0,250}$)(?=.*\baffiliate[- ]?(?:links?|partner))(?=.*\b(?:provision|commission|compensat|geld|earn|verdienen|vergütung|qualifying purchases)).*`,
    String.raw`^as an amazon associate,? (?:i|we) earn from qualifying purchases\.?$`,
    // Disclaimers and buttons set as lines: "Alle Angaben ohne Gewähr", "Zum Shop", "Jetzt registrieren".
    String.raw`^\(?(?:alle )?angaben ohne gewähr\.?\)?$|^(?:zum shop|zum angebot|jetzt kaufen|jetzt bestellen|buy now|shop now|jetzt registrieren|jetzt anmelden|register now|subscribe now)\W{0,3}$`,
    // A date label left alone on its line ("Aktualisiert:", "Ultima modifica").
    String.raw`^(?:aktualisiert|zuletzt (?:aktualisiert|geändert)|veröffentlicht|updated|last (?:updated|modified)|published|ultima modifica|última actualización|mis à jour)\s*:?$`,
    // A sign-up call after a question: "Do you want to be informed of our actions? Sign up here".
    String.raw`^.{0,150}\?\s*(?:sign up|subscribe|register|join us|jetzt anmelden|hier anmelden|inscr[ií]bete|abonnez-vous)(?: here| now| today| for free)?[.!]?$`,
    // Follow-us lines naming two networks: "Puede … seguir a Materia en Facebook, Twitter, Instagram".
    String.raw`^(?=.{0,250}$)(?=.*(?:\bfollow us\b|^follow\b|síguenos|seguirnos|\bseguir a \S+ en\b|folgen sie uns|folge uns|suivez-nous|seguici|siga-nos))(?=.*\b(?:facebook|twitter|instagram|linkedin|youtube|tiktok|mastodon|threads|bluesky)\b.*\b(?:facebook|twitter|instagram|linkedin|youtube|tiktok|mastodon|threads|bluesky|x)\b)`,
    // Licence notes of a site: "Unless otherwise noted, content on this site is licensed under CC-BY".
    String.raw`^(?:unless otherwise (?:noted|stated|indicated|specified)|sofern nicht anders (?:angegeben|ausgewiesen|vermerkt|gekennzeichnet)|except where otherwise noted)\b.{0,160}(?:licen[cs]|lizenz|cc[- ]by|creative commons)`,
    String.raw`^(?:this (?:work|article|post|content|text|blog) is licensed under|licensed under (?:a |the )?creative commons)\b.{0,160}$`,
    // Support appeals under a text: "If you enjoyed reading this post, would you consider supporting our work?"
    String.raw`^(?:if you (?:enjoyed|liked|value|appreciate)(?: reading)? (?:this|our) .{0,60}\b(?:support|donat|contribut)|(?:please )?(?:support|help) (?:us|our (?:work|journalism))\b.{0,60}\b(?:donat|subscri|contribut)|jede (?:kleine )?spende\b|unterstützen sie (?:uns|unsere arbeit|unabhängigen journalismus)).{0,200}$`,
  ].join('|'),
  'i',
);

const MONTH = String.raw`(?:jan(?:uary|uar|vier)?|feb(?:ruary|ruar)?|févr(?:ier)?|fév|mar(?:ch|s)?|märz|apr(?:il)?|avr(?:il)?|may|mai|mayo|jun(?:e|i)?|juin|jul(?:y|i)?|juil(?:let)?|aug(?:ust)?|août|sep(?:t(?:ember)?)?|oct(?:ober|obre)?|okt(?:ober)?|nov(?:ember|iembre)?|dec(?:ember)?|dez(?:ember)?|déc(?:embre)?|enero|febrero|marzo|abril|junio|julio|agosto|septiembre|octubre|diciembre)\.?`;
const DAY = String.raw`(?:mon|tue|wed|thu|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?\.?|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche`;
/** A line that is only a date (and time): "July 24, 2012 12:11 AM", "Tuesday, 30 October 2012", "2012-10-29". */
const DATE_LINE = new RegExp(
  String.raw`^(?:(?:published|updated|posted|last (?:updated|modified)|veröffentlicht|publiziert|aktualisiert|publié|mis à jour|publicado|actualizado)(?: on| am| le| el)?\s*:?\s*)?` +
    String.raw`(?:(?:${DAY})[,\s]+)?` +
    String.raw`(?:${MONTH}\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}(?:st|nd|rd|th)?\.?\s+(?:de\s+)?${MONTH}(?:\s+de)?,?\s+\d{4}|\d{4}-\d{2}-\d{2}|\d{1,2}[./]\d{1,2}[./]\d{2,4})` +
    String.raw`(?:[,\s|·•-]+(?:at\s+|um\s+|à\s+)?\d{1,2}[:.h]\d{2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|uhr)?(?:\s+[a-z]{2,4})?)?\s*$`,
  'i',
);
/** A byline: "By Jane Doe", "By JANE DOE and JOHN ROE", "Posted by jane on …", "Written by …". */
const POSTED_BY =
  /^(?:posted|written|reported|published|words|text|story)\s+(?:by|von|par|por|di)\s*:?\s+\S.{0,80}$/i;
const BY_NAME =
  /^(?:[Bb][Yy]|[Vv]on|VON|[Pp]ar|PAR|[Pp]or|POR|[Dd]i|[Dd]oor|[Aa][vf])\s*:?\s+[\p{Lu}@][^.!?]{0,80}$/u;

/** Lines before the first and after the last paragraph this long are the head and tail of the text. */
const PARAGRAPH_CHARS = 150;

/** Paragraphs that make the content an article, with a head and a tail. */
const ARTICLE_PARAGRAPHS = 2;
const HEADING = /^h[1-6]$/;
const MAX_TRAILING_HEADINGS = 2;

/** A furniture line is short. */
const MAX_LINE_CHARS = 200;

const BLOCK_CHILDREN = new Set([
  'p',
  'div',
  'section',
  'article',
  'ul',
  'ol',
  'li',
  'table',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'dl',
  'figure',
]);

function hasBlockChild(element: DomElement): boolean {
  for (let c = element.firstElementChild; c; c = c.nextElementSibling)
    if (BLOCK_CHILDREN.has(tagOf(c))) return true;
  return false;
}

interface Line {
  element: DomElement;
  /** Collapsed text, for lines short enough to be furniture. */
  text?: string;
  long: boolean;
}

/**
 * Removes the furniture lines inside the main content (leaf blocks whose whole text is furniture),
 * and bylines and date lines at the head or the tail of the text (a date inside the text, such as a
 * letter's, stays).
 */
export function removeBoilerplateLines(root: DomElement): void {
  const lines: Line[] = [];
  const walk = (element: DomElement): void => {
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (!isElement(child)) continue;
      const tag = tagOf(child);
      if (tag === 'pre' || tag === 'code' || tag === 'table') {
        lines.push({ element: child, long: true });
        continue;
      }
      if (hasBlockChild(child)) {
        walk(child);
        continue;
      }
      const length = visibleLength(child, MAX_LINE_CHARS);
      if (length > MAX_LINE_CHARS) lines.push({ element: child, long: true });
      else {
        const text = collapsedSpace(child.textContent);
        if (text) lines.push({ element: child, text, long: length >= PARAGRAPH_CHARS });
      }
    }
  };
  walk(root);
  // Bylines and dates head and tail an article: text in paragraphs. A date heading a schedule or a
  // listing is its content.
  const article = lines.filter((l) => l.long && tagOf(l.element) === 'p').length >= ARTICLE_PARAGRAPHS;
  const first = lines.findIndex((l) => l.long);
  let last = -1;
  for (let i = lines.length - 1; i >= 0 && last < 0; i--) if (lines[i].long) last = i;
  // A heading or two ending the text head nothing: the section under them went as chrome. (More
  // headings in a row, or headings alone, are a list of titles.)
  let tail = lines.length;
  while (tail > last + 1 && HEADING.test(tagOf(lines[tail - 1].element))) tail--;
  const hasText = lines.slice(0, tail).some((l) => !HEADING.test(tagOf(l.element)));
  if (hasText && lines.length - tail <= MAX_TRAILING_HEADINGS)
    for (const line of lines.slice(tail)) line.element.remove();
  lines.forEach((line, i) => {
    const text = line.text;
    if (text === undefined) return;
    const edge = article && (i < first || i > last) && !HEADING.test(tagOf(line.element));
    if (
      FURNITURE_LINE.test(text) ||
      (edge && (DATE_LINE.test(text) || POSTED_BY.test(text) || BY_NAME.test(text)))
    )
      line.element.remove();
  });
}
