import { posix } from 'node:path';

import { coreProperties } from './docx.converter';
import { htmlOutput } from './html-output';
import type { OfficeConvertOptions, OfficeOutput } from './office-output.types';
import { gridToHtml } from './table-markdown.util';
import { childrenNamed, escapeHtml, findAll, findFirst, parseXml, textOf, type XmlNode } from './xml.util';
import { DocumentFormatError, openZip, readEntry } from './zip.util';

const MAX_SLIDES = 2_000;

/**
 * PowerPoint (.pptx, .pptm): a small converter of our own over the slide XML (no maintained npm
 * converter keeps slide order, titles, bullet levels and tables). Each slide becomes a `##` section.
 */
export async function convertPptx(
  data: Buffer,
  filename: string,
  options: OfficeConvertOptions,
): Promise<OfficeOutput> {
  const zip = await openZip(data);
  const presentation = await readEntry(zip, 'ppt/presentation.xml');
  if (!presentation)
    throw new DocumentFormatError(
      'The file is not a PowerPoint presentation (ppt/presentation.xml is missing)',
    );
  const relations = relationTargets(await readEntry(zip, 'ppt/_rels/presentation.xml.rels'), 'ppt');
  const slideIds = findAll(parseXml(presentation), 'p:sldId').slice(0, MAX_SLIDES);
  const sections: string[] = [];
  for (const [index, slideId] of slideIds.entries()) {
    const target = relations.get(slideId.attrs['r:id'] ?? '');
    const xml = target ? await readEntry(zip, target) : undefined;
    if (!xml) continue;
    sections.push(slideHtml(parseXml(xml), index + 1));
  }
  const metadata = coreProperties(await readEntry(zip, 'docProps/core.xml'));
  return htmlOutput(`<html><body>${sections.join('')}</body></html>`, filename, options, true, metadata);
}

/** Relationship id → package path of a `.rels` part. */
export function relationTargets(xml: string | undefined, baseDir: string): Map<string, string> {
  const targets = new Map<string, string>();
  if (!xml) return targets;
  for (const relation of findAll(parseXml(xml), 'Relationship')) {
    const target = relation.attrs['Target'];
    if (!relation.attrs['Id'] || !target || relation.attrs['TargetMode'] === 'External') continue;
    targets.set(
      relation.attrs['Id'],
      target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(baseDir, target)),
    );
  }
  return targets;
}

function slideHtml(nodes: XmlNode[], number: number): string {
  const tree = findFirst(nodes, 'p:spTree');
  if (!tree) return `<section><h2>Slide ${number}</h2></section>`;
  const shapes = flattenShapes(tree);
  const titleShape = shapes.find((shape) => /^(title|ctrTitle)$/.test(placeholderType(shape) ?? ''));
  const title = titleShape
    ? paragraphs(titleShape)
        .map((paragraph) => paragraph.text)
        .join(' ')
        .trim()
    : '';
  const parts: string[] = [`<h2>${escapeHtml(title || `Slide ${number}`)}</h2>`];
  for (const shape of shapes) {
    if (shape === titleShape) continue;
    if (shape.name === 'p:graphicFrame') {
      const table = findFirst(shape.children, 'a:tbl');
      if (table)
        parts.push(
          gridToHtml(
            childrenNamed(table, 'a:tr').map((row) =>
              childrenNamed(row, 'a:tc').map((cell) => textOf(cell).replace(/\s+/g, ' ').trim()),
            ),
          ),
        );
      continue;
    }
    const type = placeholderType(shape);
    const texts = paragraphs(shape).filter((paragraph) => paragraph.text.trim());
    if (texts.length === 0) continue;
    const bulleted = type === 'body' || type === 'obj' || (type === '' && hasPlaceholder(shape));
    parts.push(
      bulleted ? listHtml(texts) : texts.map((paragraph) => `<p>${escapeHtml(paragraph.text)}</p>`).join(''),
    );
  }
  return `<section>${parts.join('')}</section>`;
}

/** Shapes in drawing order, groups expanded. */
function flattenShapes(tree: XmlNode): XmlNode[] {
  return tree.children.flatMap((child) =>
    child.name === 'p:grpSp'
      ? flattenShapes(child)
      : child.name === 'p:sp' || child.name === 'p:graphicFrame'
        ? [child]
        : [],
  );
}

function hasPlaceholder(shape: XmlNode): boolean {
  return !!findFirst(shape.children, 'p:ph');
}

/** The placeholder type ('' for a placeholder without type, undefined for a free text box). */
function placeholderType(shape: XmlNode): string | undefined {
  const placeholder = findFirst(shape.children, 'p:ph');
  return placeholder ? (placeholder.attrs['type'] ?? '') : undefined;
}

function paragraphs(shape: XmlNode): { text: string; level: number }[] {
  const body = findFirst(shape.children, 'p:txBody');
  if (!body) return [];
  return childrenNamed(body, 'a:p').map((paragraph) => {
    const properties = childrenNamed(paragraph, 'a:pPr')[0];
    const text = paragraph.children
      .map((child) =>
        child.name === 'a:r' || child.name === 'a:fld'
          ? childrenNamed(child, 'a:t').map(textOf).join('')
          : child.name === 'a:br'
            ? ' '
            : '',
      )
      .join('')
      .replace(/\s+/g, ' ')
      .trim();
    return { text, level: Math.min(8, Number(properties?.attrs['lvl'] ?? '0') || 0) };
  });
}

interface ListNode {
  text: string;
  children: ListNode[];
}

/** Paragraph levels as nested lists (a level can only go one deeper than the previous item). */
function listHtml(items: { text: string; level: number }[]): string {
  const root: ListNode[] = [];
  const path: ListNode[] = [];
  for (const item of items) {
    const level = Math.min(item.level, path.length);
    const node: ListNode = { text: item.text, children: [] };
    (level === 0 ? root : path[level - 1].children).push(node);
    path[level] = node;
    path.length = level + 1;
  }
  const render = (nodes: ListNode[]): string =>
    `<ul>${nodes.map((node) => `<li>${escapeHtml(node.text)}${node.children.length ? render(node.children) : ''}</li>`).join('')}</ul>`;
  return render(root);
}
