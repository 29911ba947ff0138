import iconv from 'iconv-lite';

import { htmlOutput } from './html-output';
import type { OfficeConvertOptions, OfficeOutput } from './office-output.types';
import { escapeHtml } from './xml.util';
import { DocumentFormatError } from './zip.util';

/**
 * RTF: a small converter of our own (npm has no maintained RTF reader). It understands groups,
 * control words, code pages and \u escapes, headings (heading styles, \outlinelevel), bold and
 * italic, list paragraphs, tables (\intbl, \cell, \row) and hyperlink fields; everything else
 * (fonts, colours, pictures, headers, footnotes) is skipped.
 */
export function convertRtf(data: Buffer, filename: string, options: OfficeConvertOptions): OfficeOutput {
  const source = data.toString('latin1');
  if (!/^\s*\{\\rtf/.test(source))
    throw new DocumentFormatError('The file is not an RTF document (it does not start with {\\rtf)');
  const parsed = new RtfReader(source).read();
  const metadata = Object.fromEntries(
    Object.entries(parsed.info)
      .filter(([, value]) => value.trim())
      .map(([key, value]) => [key, value.trim()]),
  );
  return htmlOutput(`<html><body>${parsed.html}</body></html>`, filename, options, true, metadata);
}

interface CharState {
  bold: boolean;
  italic: boolean;
  link?: string;
}

interface GroupState extends CharState {
  /** Text of this group is dropped (fonts, colours, pictures, unknown `\*` destinations…). */
  skip: boolean;
  /** Where text goes when it is not document text. */
  sink?: 'style' | 'info-title' | 'info-author' | 'info-subject' | 'listtext' | 'fldinst';
  unicodeSkip: number;
  inStylesheet: boolean;
  inField: boolean;
}

interface Run extends CharState {
  text: string;
}

interface Paragraph {
  runs: Run[];
  inTable: boolean;
  heading?: number;
  list?: { ordered: boolean };
}

const SKIPPED_DESTINATIONS = new Set([
  'fonttbl',
  'colortbl',
  'pict',
  'object',
  'objdata',
  'themedata',
  'colorschememapping',
  'latentstyles',
  'datastore',
  'xmlnstbl',
  'listtable',
  'listoverridetable',
  'rsidtbl',
  'generator',
  'header',
  'footer',
  'headerl',
  'headerr',
  'headerf',
  'footerl',
  'footerr',
  'footerf',
  'footnote',
  'annotation',
  'atnid',
  'atnauthor',
  'bkmkstart',
  'bkmkend',
  'pgdsctbl',
  'filetbl',
  'revtbl',
  'mmathPr',
  'wgrffmtfilter',
  'docvar',
  'shp',
  'nonshppict',
  'pn',
  'pnseclvl',
  'operator',
  'company',
  'category',
  'comment',
  'doccomm',
  'hlinkbase',
  'keywords',
  'manager',
  'creatim',
  'revtim',
  'printim',
  'buptim',
  'template',
  'xe',
  'tc',
  'userprops',
  'passwordhash',
  'protusertbl',
  'fchars',
  'lchars',
  'ftnsep',
  'ftnsepc',
  'aftnsep',
  'aftnsepc',
  'blipuid',
  'mhtmltag',
  'htmltag',
]);

const SYMBOLS: Record<string, string> = {
  emdash: '—',
  endash: '–',
  bullet: '•',
  lquote: '‘',
  rquote: '’',
  ldblquote: '“',
  rdblquote: '”',
  emspace: ' ',
  enspace: ' ',
  qmspace: ' ',
};

/** Groups nested deeper than this are refused (hostile input). */
const MAX_DEPTH = 512;

class RtfReader {
  private position = 0;
  private state: GroupState = {
    bold: false,
    italic: false,
    skip: false,
    unicodeSkip: 1,
    inStylesheet: false,
    inField: false,
  };
  private readonly stack: GroupState[] = [];
  private codepage = 'win1252';
  private pendingBytes: number[] = [];
  private skipChars = 0;
  private paragraph: Paragraph = { runs: [], inTable: false };
  private readonly styles = new Map<number, number>();
  private styleNumber = 0;
  private styleText = '';
  private listText = '';
  private fieldInstruction = '';
  private readonly html: string[] = [];
  private row: string[] = [];
  private cell: string[] = [];
  private table: string[][] = [];
  private list: { ordered: boolean; items: string[] } | undefined;
  readonly info = { title: '', author: '', description: '' };

  constructor(private readonly source: string) {}

  read(): { html: string; info: { title: string; author: string; description: string } } {
    const source = this.source;
    while (this.position < source.length) {
      const char = source[this.position];
      if (char === '{') {
        this.flushBytes();
        if (this.stack.length >= MAX_DEPTH)
          throw new DocumentFormatError('The RTF document nests groups too deeply');
        this.stack.push(this.state);
        this.state = { ...this.state };
        this.position += 1;
      } else if (char === '}') {
        this.flushBytes();
        this.endGroup();
        this.state = this.stack.pop() ?? this.state;
        this.position += 1;
      } else if (char === '\\') this.control();
      else {
        if (char !== '\r' && char !== '\n') {
          this.flushBytes();
          this.text(char);
        }
        this.position += 1;
      }
    }
    this.flushBytes();
    this.endParagraph();
    this.closeTable();
    this.closeList();
    return { html: this.html.join(''), info: this.info };
  }

  private control(): void {
    const source = this.source;
    const next = source[this.position + 1];
    if (next === undefined) {
      this.position += 1;
      return;
    }
    if (!/[a-zA-Z]/.test(next)) {
      this.position += 2;
      if (next === "'") {
        const byte = parseInt(source.slice(this.position, this.position + 2), 16);
        this.position += 2;
        if (this.skipChars > 0) this.skipChars -= 1;
        else if (!Number.isNaN(byte)) this.pendingBytes.push(byte);
        return;
      }
      this.flushBytes();
      if (next === '*') this.state.skip = this.state.skip || !this.state.sink;
      else if (next === '~') this.text('\u00a0');
      else if (next === '_') this.text('-');
      else if (next === '\\' || next === '{' || next === '}') this.text(next);
      else if (next === '\n' || next === '\r') this.endParagraph();
      return;
    }
    const match = /^([a-zA-Z]{1,32})(-?\d{1,10})? ?/.exec(
      source.slice(this.position + 1, this.position + 48),
    );
    if (!match) {
      this.position += 1;
      return;
    }
    this.position += 1 + match[0].length;
    this.flushBytes();
    const word = match[1];
    const param = match[2] === undefined ? undefined : Number(match[2]);
    this.word(word, param);
  }

  private word(word: string, param: number | undefined): void {
    const state = this.state;
    if (word === 'ansicpg' && param)
      this.codepage = iconv.encodingExists(`cp${param}`) ? `cp${param}` : this.codepage;
    else if (word === 'u' && param !== undefined) {
      this.text(String.fromCharCode(param < 0 ? param + 65_536 : param));
      // The next `\uc` characters are the fallback rendering of the same character.
      this.skipChars = state.unicodeSkip;
    } else if (word === 'uc') state.unicodeSkip = param ?? 1;
    else if (SKIPPED_DESTINATIONS.has(word)) state.skip = true;
    else if (word === 'stylesheet') {
      state.inStylesheet = true;
      state.sink = 'style';
    } else if (state.inStylesheet && (word === 's' || word === 'cs' || word === 'ds' || word === 'ts')) {
      this.styleNumber = word === 's' ? (param ?? 0) : -1;
      this.styleText = '';
    } else if (word === 'info') state.skip = false;
    else if (word === 'title') state.sink = 'info-title';
    else if (word === 'author') state.sink = 'info-author';
    else if (word === 'subject') state.sink = 'info-subject';
    else if (word === 'listtext' || word === 'pntext') {
      state.sink = 'listtext';
      state.skip = false;
      this.listText = '';
      this.paragraph.list = { ordered: false };
    } else if (word === 'fldinst') {
      state.sink = 'fldinst';
      state.skip = false;
      this.fieldInstruction = '';
    } else if (word === 'fldrslt') {
      const url = /HYPERLINK\s+"([^"]+)"/i.exec(this.fieldInstruction)?.[1];
      if (url) state.link = url;
    } else if (state.skip || state.sink) return;
    else if (word === 'par' || word === 'sect' || word === 'page') this.endParagraph();
    else if (word === 'line') this.text('\n');
    else if (word === 'tab') this.text(this.paragraph.inTable ? ' ' : '\t');
    else if (word === 'pard') {
      this.paragraph.inTable = false;
      this.paragraph.heading = undefined;
      if (!this.paragraph.runs.length) this.paragraph.list = undefined;
    } else if (word === 'plain') {
      state.bold = false;
      state.italic = false;
    } else if (word === 'b') state.bold = param !== 0;
    else if (word === 'i') state.italic = param !== 0;
    else if (word === 's' && param !== undefined) {
      const level = this.styles.get(param);
      if (level) this.paragraph.heading = level;
    } else if (word === 'outlinelevel' && param !== undefined && param >= 0 && param < 9)
      this.paragraph.heading = Math.min(6, param + 1);
    else if ((word === 'ls' || word === 'ilvl') && !this.paragraph.list)
      this.paragraph.list = { ordered: false };
    else if (word === 'intbl') this.paragraph.inTable = true;
    else if (word === 'cell') this.endCell();
    else if (word === 'row') this.endRow();
    else if (SYMBOLS[word]) this.text(SYMBOLS[word]);
  }

  private text(text: string): void {
    if (this.skipChars > 0) {
      this.skipChars -= 1;
      return;
    }
    const state = this.state;
    if (state.sink === 'style') {
      this.styleText += text;
      return;
    }
    if (state.sink === 'info-title') this.info.title += text;
    else if (state.sink === 'info-author') this.info.author += text;
    else if (state.sink === 'info-subject') this.info.description += text;
    else if (state.sink === 'listtext') this.listText += text;
    else if (state.sink === 'fldinst') this.fieldInstruction += text;
    if (state.skip || state.sink) return;
    const last = this.paragraph.runs[this.paragraph.runs.length - 1];
    if (last && last.bold === state.bold && last.italic === state.italic && last.link === state.link)
      last.text += text;
    else this.paragraph.runs.push({ text, bold: state.bold, italic: state.italic, link: state.link });
  }

  private flushBytes(): void {
    if (!this.pendingBytes.length) return;
    const bytes = Buffer.from(this.pendingBytes);
    this.pendingBytes = [];
    for (const char of iconv.decode(bytes, this.codepage)) this.text(char);
  }

  private endGroup(): void {
    const state = this.state;
    const parent = this.stack[this.stack.length - 1];
    if (state.sink === 'style' && parent?.sink === 'style' && this.styleNumber >= 0) {
      const name = this.styleText.replace(/;\s*$/, '').trim().toLowerCase();
      const heading = /^heading\s*(\d)/.exec(name);
      if (heading) this.styles.set(this.styleNumber, Math.min(6, Number(heading[1])));
      else if (name === 'title') this.styles.set(this.styleNumber, 1);
      this.styleText = '';
    }
    if (state.sink === 'listtext' && parent?.sink !== 'listtext' && this.paragraph.list) {
      this.paragraph.list.ordered = /\d|^[a-z][.)]/i.test(this.listText.trim());
    }
  }

  private endParagraph(): void {
    const paragraph = this.paragraph;
    // Paragraph properties last until \pard.
    this.paragraph = {
      runs: [],
      inTable: paragraph.inTable,
      heading: paragraph.heading,
      list: paragraph.list ? { ...paragraph.list } : undefined,
    };
    const html = this.runsHtml(paragraph.runs).trim();
    if (paragraph.inTable) {
      if (html) this.cell.push(html);
      return;
    }
    this.closeTable();
    if (!html) return;
    if (paragraph.list) {
      if (this.list && this.list.ordered !== paragraph.list.ordered) this.closeList();
      this.list ??= { ordered: paragraph.list.ordered, items: [] };
      this.list.items.push(html);
      return;
    }
    this.closeList();
    this.html.push(
      paragraph.heading ? `<h${paragraph.heading}>${html}</h${paragraph.heading}>` : `<p>${html}</p>`,
    );
  }

  private endCell(): void {
    if (this.paragraph.runs.length) this.endParagraph();
    this.paragraph.inTable = true;
    this.row.push(this.cell.join(' '));
    this.cell = [];
  }

  private endRow(): void {
    if (this.cell.length) this.endCell();
    this.closeList();
    this.table.push(this.row);
    this.row = [];
    this.paragraph = { runs: [], inTable: false };
  }

  private closeTable(): void {
    if (!this.table.length) return;
    const [header, ...rows] = this.table;
    this.table = [];
    this.closeList();
    this.html.push(
      `<table><thead><tr>${header.map((cell) => `<th>${cell}</th>`).join('')}</tr></thead><tbody>${rows.map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`).join('')}</tbody></table>`,
    );
  }

  private closeList(): void {
    if (!this.list) return;
    const tag = this.list.ordered ? 'ol' : 'ul';
    this.html.push(`<${tag}>${this.list.items.map((item) => `<li>${item}</li>`).join('')}</${tag}>`);
    this.list = undefined;
  }

  private runsHtml(runs: readonly Run[]): string {
    return runs
      .map((run) => {
        let html = escapeHtml(run.text).replace(/\n/g, '<br>').replace(/\t/g, ' ');
        if (!html.trim()) return html;
        if (run.bold) html = `<strong>${html}</strong>`;
        if (run.italic) html = `<em>${html}</em>`;
        if (run.link) html = `<a href="${escapeHtml(run.link)}">${html}</a>`;
        return html;
      })
      .join('');
  }
}
