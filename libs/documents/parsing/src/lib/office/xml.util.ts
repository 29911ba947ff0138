import { XMLParser } from 'fast-xml-parser';

/** An XML element with its attributes and children in document order. */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  /** Set on text nodes (name `#text`). */
  text?: string;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  preserveOrder: true,
  attributeNamePrefix: '',
  trimValues: false,
  processEntities: true,
  htmlEntities: true,
  parseTagValue: false,
  parseAttributeValue: false,
});

/** Parses XML from an office package. DTD entity declarations are refused (no entity expansion attacks). */
export function parseXml(xml: string): XmlNode[] {
  if (/<!DOCTYPE[^>]*\[/i.test(xml.slice(0, 4_096)) || /<!ENTITY/i.test(xml.slice(0, 65_536)))
    throw new Error('XML with entity declarations is not accepted');
  return convert(parser.parse(xml) as RawNode[]);
}

type RawNode = Record<string, unknown>;

function convert(nodes: RawNode[]): XmlNode[] {
  const out: XmlNode[] = [];
  for (const node of nodes) {
    const attrs = (node[':@'] ?? {}) as Record<string, string>;
    for (const [key, value] of Object.entries(node)) {
      if (key === ':@') continue;
      if (key === '#text') out.push({ name: '#text', attrs: {}, children: [], text: String(value) });
      else if (key.startsWith('?')) continue;
      else out.push({ name: key, attrs, children: Array.isArray(value) ? convert(value as RawNode[]) : [] });
    }
  }
  return out;
}

/** Local name without namespace prefix (`text:p` → `p`). */
export function localName(node: XmlNode): string {
  const colon = node.name.indexOf(':');
  return colon === -1 ? node.name : node.name.slice(colon + 1);
}

export function childrenNamed(node: XmlNode, name: string): XmlNode[] {
  return node.children.filter((child) => child.name === name);
}

/** Depth-first search for elements with this (qualified) name. */
export function findAll(nodes: readonly XmlNode[], name: string, out: XmlNode[] = []): XmlNode[] {
  for (const node of nodes) {
    if (node.name === name) out.push(node);
    findAll(node.children, name, out);
  }
  return out;
}

export function findFirst(nodes: readonly XmlNode[], name: string): XmlNode | undefined {
  for (const node of nodes) {
    if (node.name === name) return node;
    const found = findFirst(node.children, name);
    if (found) return found;
  }
  return undefined;
}

/** Concatenated text of a subtree. */
export function textOf(node: XmlNode): string {
  if (node.text !== undefined) return node.text;
  return node.children.map(textOf).join('');
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
