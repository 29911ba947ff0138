/**
 * The request a playground form sends, as the equivalent `curl` command, JS SDK
 * (`@mendable/firecrawl-js`) and Python SDK (`firecrawl-py`, keyword arguments in snake_case) code.
 * Snippets read the key from the environment: the signed-in key is never printed.
 */
export type Operation = 'scrape' | 'crawl' | 'map' | 'search' | 'batch' | 'parse';

export interface SnippetInput {
  operation: Operation;
  /** The JSON body as sent (parse: its `options`). */
  body: Record<string, unknown>;
  /** Base URL of the API (this origin). */
  origin: string;
  /** parse: the uploaded file's name. */
  fileName?: string;
}

export const PATHS: Record<Operation, string> = {
  scrape: '/v2/scrape',
  crawl: '/v2/crawl',
  map: '/v2/map',
  search: '/v2/search',
  batch: '/v2/batch/scrape',
  parse: '/v2/parse',
};

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** A JS literal with unquoted keys where possible, two-space indented. */
export function jsLiteral(value: unknown, indent = ''): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const inner = indent + '  ';
    if (value.every((item) => item === null || typeof item !== 'object'))
      return `[${value.map((item) => jsLiteral(item)).join(', ')}]`;
    return `[\n${value.map((item) => inner + jsLiteral(item, inner)).join(',\n')},\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return '{}';
    const inner = indent + '  ';
    const lines = entries.map(
      ([key, item]) =>
        `${inner}${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${jsLiteral(item, inner)}`,
    );
    return `{\n${lines.join(',\n')},\n${indent}}`;
  }
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

/** A Python literal (dicts keep their JSON keys). */
export function pythonLiteral(value: unknown, indent = ''): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const inner = indent + '    ';
    if (value.every((item) => item === null || typeof item !== 'object'))
      return `[${value.map((item) => pythonLiteral(item)).join(', ')}]`;
    return `[\n${value.map((item) => inner + pythonLiteral(item, inner)).join(',\n')},\n${indent}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    if (entries.length === 0) return '{}';
    const inner = indent + '    ';
    return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${pythonLiteral(item, inner)}`).join(',\n')},\n${indent}}`;
  }
  return JSON.stringify(value);
}

export const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function curlSnippet({ operation, body, origin, fileName }: SnippetInput): string {
  const url = `${origin}${PATHS[operation]}`;
  const auth = '-H "Authorization: Bearer $QUARRY_API_KEY"';
  if (operation === 'parse') {
    return [
      `curl -X POST ${shellQuote(url)} \\`,
      `  ${auth} \\`,
      `  -F ${shellQuote(`file=@${fileName ?? 'document.pdf'}`)} \\`,
      `  -F ${shellQuote(`options=${JSON.stringify(body)}`)}`,
    ].join('\n');
  }
  return [
    `curl -X POST ${shellQuote(url)} \\`,
    `  ${auth} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(JSON.stringify(body, null, 2))}`,
  ].join('\n');
}

/** The first argument the SDK method takes positionally, and the rest of the body. */
function split(
  operation: Operation,
  body: Record<string, unknown>,
): { first: unknown; rest: Record<string, unknown> } {
  const { url, query, urls, ...rest } = body;
  if (operation === 'search')
    return { first: query, rest: { ...rest, ...(url !== undefined ? { url } : {}) } };
  if (operation === 'batch') return { first: urls, rest: { ...rest, ...(url !== undefined ? { url } : {}) } };
  return {
    first: url,
    rest: { ...rest, ...(query !== undefined ? { query } : {}), ...(urls !== undefined ? { urls } : {}) },
  };
}

const JS_METHODS: Record<Operation, string> = {
  scrape: 'scrape',
  crawl: 'startCrawl',
  map: 'map',
  search: 'search',
  batch: 'startBatchScrape',
  parse: 'parse',
};

export function jsSnippet({ operation, body, origin, fileName }: SnippetInput): string {
  const head = [
    "import Firecrawl from '@mendable/firecrawl-js';",
    ...(operation === 'parse' ? ["import { readFile } from 'node:fs/promises';"] : []),
    '',
    `const app = new Firecrawl({ apiKey: process.env.QUARRY_API_KEY, apiUrl: ${JSON.stringify(origin)} });`,
  ];
  if (operation === 'parse') {
    const name = fileName ?? 'document.pdf';
    const options = Object.keys(body).length ? `, ${jsLiteral(body)}` : '';
    return [
      ...head,
      `const result = await app.parse({ data: await readFile(${JSON.stringify(name)}), filename: ${JSON.stringify(name)} }${options});`,
      'console.log(result);',
    ].join('\n');
  }
  const { first, rest } = split(operation, body);
  const options = operation === 'batch' ? (Object.keys(rest).length ? { options: rest } : {}) : rest;
  const args = Object.keys(options).length ? `${jsLiteral(first)}, ${jsLiteral(options)}` : jsLiteral(first);
  return [
    ...head,
    `const result = await app.${JS_METHODS[operation]}(${args});`,
    'console.log(result);',
  ].join('\n');
}

const PY_METHODS: Record<Exclude<Operation, 'parse'>, string> = {
  scrape: 'scrape',
  crawl: 'start_crawl',
  map: 'map',
  search: 'search',
  batch: 'start_batch_scrape',
};

export function pythonSnippet({ operation, body, origin, fileName }: SnippetInput): string {
  if (operation === 'parse') {
    // The upload is plain multipart HTTP; shown with requests.
    const name = fileName ?? 'document.pdf';
    return [
      'import json, os, requests',
      '',
      `with open(${JSON.stringify(name)}, "rb") as file:`,
      '    response = requests.post(',
      `        ${JSON.stringify(`${origin}${PATHS.parse}`)},`,
      '        headers={"Authorization": f"Bearer {os.environ[\'QUARRY_API_KEY\']}"},',
      `        files={"file": (${JSON.stringify(name)}, file)},`,
      `        data={"options": json.dumps(${pythonLiteral(body, '        ')})},`,
      '    )',
      'print(response.json())',
    ].join('\n');
  }
  const { first, rest } = split(operation, body);
  const keywords = Object.entries(rest)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `    ${snakeCase(key)}=${pythonLiteral(value, '    ')},`);
  const call = keywords.length
    ? `app.${PY_METHODS[operation]}(\n    ${pythonLiteral(first, '    ')},\n${keywords.join('\n')}\n)`
    : `app.${PY_METHODS[operation]}(${pythonLiteral(first)})`;
  return [
    'import os',
    'from firecrawl import Firecrawl',
    '',
    `app = Firecrawl(api_key=os.environ["QUARRY_API_KEY"], api_url=${JSON.stringify(origin)})`,
    `result = ${call}`,
    'print(result)',
  ].join('\n');
}
