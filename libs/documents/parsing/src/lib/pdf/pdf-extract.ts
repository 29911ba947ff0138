import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist';

import type { Box, PageContent, PdfInfo, TextItem } from '../model/page-content.types';

type Pdfjs = typeof import('pdfjs-dist');
type Matrix = [number, number, number, number, number, number];

// pdfjs-dist is ESM-only; a real dynamic import keeps bundlers and the CommonJS test transform from rewriting it.
const importEsm = new Function('specifier', 'return import(specifier)') as (
  specifier: string,
) => Promise<unknown>;
// Taken from the runtime so that bundlers leave it alone: packages resolve from node_modules at run time.
const requireHere = process.getBuiltinModule('node:module').createRequire(join(__dirname, 'noop.js'));

let pdfjsPromise: Promise<Pdfjs> | undefined;

/** Loads pdf.js (legacy build: the one that runs on Node 20) once per thread. */
export function loadPdfjs(): Promise<Pdfjs> {
  pdfjsPromise ??= (async () => {
    // The legacy build's core-js replaces Array.prototype.push with a much slower polyfill on
    // Node 20 (a V8 check for non-writable array lengths fails); pdf.js never relies on that edge
    // case, so this thread gets the native method back (it was a third of text extraction time).
    const nativePush = Array.prototype.push;
    const pdfjs = (await importEsm(
      pathToFileURL(requireHere.resolve('pdfjs-dist/legacy/build/pdf.mjs')).href,
    )) as Pdfjs;
    await importEsm(pathToFileURL(requireHere.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs')).href);
    Object.defineProperty(Array.prototype, 'push', {
      value: nativePush,
      writable: true,
      configurable: true,
      enumerable: false,
    });
    return pdfjs;
  })();
  return pdfjsPromise;
}

function pdfjsAsset(folder: string): string {
  return `${join(dirname(requireHere.resolve('pdfjs-dist/package.json')), folder)}/`;
}

export interface OpenOptions {
  password?: string;
  /**
   * Load the standard 14 fonts' programs. Only pdf.js rendering needs them: text extraction uses
   * their built-in metrics and gives identical text and positions several times faster without.
   */
  standardFonts: boolean;
  /** Images above this many pixels are not decoded (memory bound). */
  maxImagePixels: number;
}

export class PdfOpenError extends Error {
  constructor(
    readonly reason: 'encrypted' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'PdfOpenError';
  }
}

export async function openPdf(data: Uint8Array, options: OpenOptions): Promise<PDFDocumentProxy> {
  const pdfjs = await loadPdfjs();
  const task = pdfjs.getDocument({
    data,
    password: options.password,
    ...(options.standardFonts ? { standardFontDataUrl: pdfjsAsset('standard_fonts') } : {}),
    cMapUrl: pdfjsAsset('cmaps'),
    cMapPacked: true,
    wasmUrl: pdfjsAsset('wasm'),
    iccUrl: pdfjsAsset('iccs'),
    // Untrusted input: no code generation from fonts, no XFA scripts, no font loading into the host.
    isEvalSupported: false,
    enableXfa: false,
    disableFontFace: true,
    useSystemFonts: false,
    maxImageSize: options.maxImagePixels,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    return await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    const name = (error as { name?: string })?.name;
    if (name === 'PasswordException')
      throw new PdfOpenError('encrypted', 'The PDF is encrypted with a password');
    const message = error instanceof Error ? error.message : String(error);
    throw new PdfOpenError('invalid', `The PDF could not be opened: ${message}`);
  }
}

export async function pdfInfo(document: PDFDocumentProxy): Promise<PdfInfo> {
  const info: PdfInfo = { totalPages: document.numPages };
  try {
    const metadata = await document.getMetadata();
    const raw = (metadata.info ?? {}) as Record<string, unknown>;
    const text = (key: string) =>
      typeof raw[key] === 'string' && (raw[key] as string).trim()
        ? (raw[key] as string).trim().slice(0, 1_000)
        : undefined;
    info.title = text('Title') ?? metadata.metadata?.get('dc:title')?.trim() ?? undefined;
    info.author = text('Author');
    info.subject = text('Subject');
    info.keywords = text('Keywords');
    info.creator = text('Creator');
    info.producer = text('Producer');
    info.language = text('Language');
    info.creationDate = pdfDate(text('CreationDate'));
    info.modificationDate = pdfDate(text('ModDate'));
  } catch {
    // Broken metadata never prevents parsing.
  }
  for (const key of Object.keys(info) as (keyof PdfInfo)[])
    if (info[key] === undefined || info[key] === '') delete info[key];
  return info;
}

/** `D:20240131120000+01'00'` → ISO 8601 (undefined when unreadable). */
function pdfDate(value: string | undefined): string | undefined {
  const match = value?.match(/^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?/);
  if (!match) return undefined;
  const [
    ,
    year,
    month = '01',
    day = '01',
    hour = '00',
    minute = '00',
    second = '00',
    sign,
    tzHour,
    tzMinute,
  ] = match;
  const zone = !sign || sign.toUpperCase() === 'Z' ? 'Z' : `${sign}${tzHour ?? '00'}:${tzMinute ?? '00'}`;
  const date = new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}${zone}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export interface ExtractOptions {
  maxItems: number;
  /**
   * Also interpret the page's drawing operators: images (figures, scans), rulings and real font
   * names (bold, monospace). Costs about as much again as the text itself; fast mode skips it.
   */
  graphics: boolean;
  /** Operator-list entries examined for images and rulings (bounded for hostile content streams). */
  maxOperators: number;
}

const BOLD = /bold|black|heavy|semibold|demibold|extrabold|ultrabold|[-,]bd\b|-sb\b/i;
const ITALIC = /italic|oblique|[-,]it\b/i;
const MONO = /mono|courier|consol|menlo|inconsolata|lucidaconsole|sourcecode|typewriter/i;

/** Text items, images and rulings of one page, in page points with a top-left origin. */
export async function extractPage(
  document: PDFDocumentProxy,
  pageNumber: number,
  options: ExtractOptions,
): Promise<PageContent> {
  const pdfjs = await loadPdfjs();
  const page = await document.getPage(pageNumber);
  try {
    const viewport = page.getViewport({ scale: 1 });
    const { images, rules } = options.graphics
      ? scanOperators(pdfjs, await page.getOperatorList(), viewport.transform as Matrix, options.maxOperators)
      : { images: [], rules: [] };
    const content = await page.getTextContent({ includeMarkedContent: false, disableNormalization: false });
    const fonts = fontFlags(page, content.styles);
    const items: TextItem[] = [];
    let truncated = false;
    for (const raw of content.items) {
      if (!('str' in raw) || !raw.str || !raw.str.trim()) continue;
      if (items.length >= options.maxItems) {
        truncated = true;
        break;
      }
      const item = toTextItem(raw as TextItemLike, viewport.transform as Matrix, content.styles, fonts);
      if (item) items.push(item);
    }
    return { pageNumber, width: viewport.width, height: viewport.height, items, images, rules, truncated };
  } finally {
    page.cleanup();
  }
}

interface TextItemLike {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
}

interface FontFlags {
  bold: boolean;
  italic: boolean;
  monospace: boolean;
}

const NO_FONT_FLAGS: FontFlags = { bold: false, italic: false, monospace: false };

/** Bold, italic and monospace of each font of the page, from its real name (and family for monospace). */
function fontFlags(
  page: PDFPageProxy,
  styles: Record<string, { fontFamily?: string }>,
): Map<string, FontFlags> {
  const flags = new Map<string, FontFlags>();
  for (const name of Object.keys(styles)) {
    let realName = '';
    try {
      if (page.commonObjs.has(name))
        realName = String((page.commonObjs.get(name) as { name?: unknown })?.name ?? '');
    } catch {
      // Font not loaded (never drawn): no style information.
    }
    flags.set(name, {
      bold: BOLD.test(realName),
      italic: ITALIC.test(realName),
      monospace: MONO.test(realName) || /monospace/i.test(styles[name]?.fontFamily ?? ''),
    });
  }
  return flags;
}

/** A pdf.js text item in page points with a top-left origin (undefined for degenerate ones). */
function toTextItem(
  raw: TextItemLike,
  m: Matrix,
  styles: Record<string, { ascent?: number; descent?: number; fontFamily?: string; vertical?: boolean }>,
  fonts: Map<string, FontFlags>,
): TextItem | undefined {
  // The viewport transform applied to the item's (pdf.js's Util.transform, without its array).
  const t = raw.transform;
  const a = m[0] * t[0] + m[2] * t[1];
  const b = m[1] * t[0] + m[3] * t[1];
  const c = m[0] * t[2] + m[2] * t[3];
  const d = m[1] * t[2] + m[3] * t[3];
  const e = m[0] * t[4] + m[2] * t[5] + m[4];
  const f = m[1] * t[4] + m[3] * t[5] + m[5];
  const fontSize = Math.hypot(c, d);
  const advance = Math.hypot(a, b);
  if (!Number.isFinite(fontSize) || fontSize <= 0.1 || !Number.isFinite(e) || !Number.isFinite(f))
    return undefined;
  const style = styles[raw.fontName] ?? {};
  const ascent = style.ascent && style.ascent > 0.5 && style.ascent < 1.3 ? style.ascent : 0.8;
  const descent = style.descent && style.descent < 0 && style.descent > -0.6 ? -style.descent : 0.2;
  const dirX = advance > 0 ? a / advance : 1;
  const dirY = advance > 0 ? b / advance : 0;
  const upX = c / fontSize;
  const upY = d / fontSize;
  const width = style.vertical ? raw.height : raw.width;
  // The box of the run: from the descent below its baseline to the ascent above, along its width.
  const bottomX = e - upX * descent * fontSize;
  const bottomY = f - upY * descent * fontSize;
  const topX = e + upX * ascent * fontSize;
  const topY = f + upY * ascent * fontSize;
  const alongX = dirX * width;
  const alongY = dirY * width;
  const flags = fonts.get(raw.fontName) ?? NO_FONT_FLAGS;
  return {
    text: raw.str.replace(/\s+/g, ' '),
    x0: Math.min(bottomX, bottomX + alongX, topX, topX + alongX),
    y0: Math.min(bottomY, bottomY + alongY, topY, topY + alongY),
    x1: Math.max(bottomX, bottomX + alongX, topX, topX + alongX),
    y1: Math.max(bottomY, bottomY + alongY, topY, topY + alongY),
    baseline: f,
    fontSize,
    bold: flags.bold,
    italic: flags.italic,
    monospace: flags.monospace,
    rotated: Math.abs(dirY) > 0.17 || dirX < 0,
  };
}

/** Follows the graphics state through the operator list to place images and thin rectangles (rulings). */
function scanOperators(
  pdfjs: Pdfjs,
  operators: { fnArray: number[]; argsArray: unknown[] },
  viewportTransform: Matrix,
  maxOperators: number,
): { images: Box[]; rules: Box[] } {
  const OPS = pdfjs.OPS as Record<string, number>;
  const images: Box[] = [];
  const rules: Box[] = [];
  let ctm: Matrix = [1, 0, 0, 1, 0, 0];
  const stack: Matrix[] = [];
  const imageOps = new Set([
    OPS['paintImageXObject'],
    OPS['paintInlineImageXObject'],
    OPS['paintImageMaskXObject'],
    OPS['paintImageXObjectRepeat'],
  ]);
  const count = Math.min(operators.fnArray.length, maxOperators);
  for (let index = 0; index < count; index += 1) {
    const fn = operators.fnArray[index];
    const args = operators.argsArray[index] as unknown[] | null;
    if (fn === OPS['save']) stack.push(ctm);
    else if (fn === OPS['restore']) ctm = stack.pop() ?? ctm;
    else if (fn === OPS['transform'] && args) ctm = pdfjs.Util.transform(ctm, args as number[]) as Matrix;
    else if (fn === OPS['paintFormXObjectBegin']) {
      stack.push(ctm);
      const matrix = args?.[0];
      if (Array.isArray(matrix) || ArrayBuffer.isView(matrix))
        ctm = pdfjs.Util.transform(ctm, Array.from(matrix as ArrayLike<number>)) as Matrix;
    } else if (fn === OPS['paintFormXObjectEnd']) ctm = stack.pop() ?? ctm;
    else if (imageOps.has(fn)) {
      const box = toViewportBox(pdfjs, viewportTransform, ctm, [0, 0, 1, 1]);
      if (box && box.x1 - box.x0 > 2 && box.y1 - box.y0 > 2) images.push(box);
    } else if (fn === OPS['constructPath'] && args) {
      const minMax = args[2];
      if (!minMax || !(Array.isArray(minMax) || ArrayBuffer.isView(minMax))) continue;
      const box = toViewportBox(pdfjs, viewportTransform, ctm, Array.from(minMax as ArrayLike<number>));
      if (!box) continue;
      const width = box.x1 - box.x0;
      const height = box.y1 - box.y0;
      if ((height <= 3 && width >= 8) || (width <= 3 && height >= 8)) rules.push(box);
      else if (width >= 8 && height >= 8 && rules.length < 5_000) {
        // A stroked rectangle (cell border, frame): its four edges are rulings.
        const drawOp = args[0];
        if (drawOp === OPS['stroke'] || drawOp === OPS['closeStroke']) {
          rules.push(
            { ...box, y1: box.y0 + 0.5 },
            { ...box, y0: box.y1 - 0.5 },
            { ...box, x1: box.x0 + 0.5 },
            { ...box, x0: box.x1 - 0.5 },
          );
        }
      }
    }
    if (images.length > 2_000 || rules.length > 10_000) break;
  }
  return { images, rules };
}

function toViewportBox(
  pdfjs: Pdfjs,
  viewportTransform: Matrix,
  ctm: Matrix,
  rect: number[],
): Box | undefined {
  const [minX, minY, maxX, maxY] = rect;
  if (![minX, minY, maxX, maxY].every(Number.isFinite) || minX === Infinity) return undefined;
  const matrix = pdfjs.Util.transform(viewportTransform, ctm) as Matrix;
  const points = [
    [minX, minY],
    [maxX, minY],
    [minX, maxY],
    [maxX, maxY],
  ].map(([x, y]) => [matrix[0] * x + matrix[2] * y + matrix[4], matrix[1] * x + matrix[3] * y + matrix[5]]);
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const box = { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
  return Object.values(box).every(Number.isFinite) ? box : undefined;
}

/** Renders a page to PNG with pdf.js and @napi-rs/canvas (used when poppler's pdftoppm is not installed). */
export async function renderPage(
  document: PDFDocumentProxy,
  pageNumber: number,
  dpi: number,
  maxPixels: number,
): Promise<{ png: Uint8Array; width: number; height: number }> {
  const page = await document.getPage(pageNumber);
  try {
    const base = page.getViewport({ scale: 1 });
    let scale = dpi / 72;
    if (base.width * base.height * scale * scale > maxPixels)
      scale = Math.sqrt(maxPixels / (base.width * base.height));
    const viewport = page.getViewport({ scale });
    const factory = (document as unknown as { canvasFactory: CanvasFactory }).canvasFactory;
    const { canvas, context } = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({ canvas: null, canvasContext: context as never, viewport }).promise;
    const encoded = canvas.toBuffer('image/png');
    // A copy that owns its buffer, so it can be transferred to the main thread.
    const png = new Uint8Array(encoded.byteLength);
    png.set(encoded);
    const result = { png, width: canvas.width, height: canvas.height };
    factory.destroy({ canvas, context });
    return result;
  } finally {
    page.cleanup();
  }
}

interface CanvasLike {
  width: number;
  height: number;
  toBuffer(type: 'image/png'): Buffer;
}

interface CanvasFactory {
  create(
    width: number,
    height: number,
  ): {
    canvas: CanvasLike;
    context: { fillStyle: string; fillRect(x: number, y: number, w: number, h: number): void };
  };
  destroy(entry: { canvas: CanvasLike; context: unknown }): void;
}
