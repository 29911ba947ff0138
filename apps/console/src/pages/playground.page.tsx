import { useMemo, useState } from 'preact/hooks';

import { DocumentView } from '../components/document-view';
import {
  Button,
  Checkbox,
  CheckGroup,
  CodeBlock,
  ErrorMessage,
  ExternalLink,
  Field,
  PageTitle,
  Select,
  Tabs,
  TextArea,
} from '../components/ui';
import { useTeamApi } from '../lib/console-context';
import { formatJson } from '../lib/format';
import { navigate } from '../lib/router';
import { curlSnippet, jsSnippet, type Operation, PATHS, pythonSnippet } from '../lib/snippets';

const OPERATIONS: { id: Operation; label: string }[] = [
  { id: 'scrape', label: 'Scrape' },
  { id: 'crawl', label: 'Crawl' },
  { id: 'map', label: 'Map' },
  { id: 'search', label: 'Search' },
  { id: 'batch', label: 'Batch' },
  { id: 'parse', label: 'Parse upload' },
];

type Format = 'markdown' | 'html' | 'rawHtml' | 'links' | 'images' | 'screenshot' | 'summary';
const FORMATS: { value: Format; label: string }[] = [
  { value: 'markdown', label: 'Markdown' },
  { value: 'html', label: 'HTML' },
  { value: 'rawHtml', label: 'Raw HTML' },
  { value: 'links', label: 'Links' },
  { value: 'images', label: 'Images' },
  { value: 'screenshot', label: 'Screenshot' },
  { value: 'summary', label: 'Summary' },
];

interface FormState {
  url: string;
  formats: Format[];
  onlyMainContent: boolean;
  actions: string;
  country: string;
  languages: string;
  maxAge: string;
  storeInCache: boolean;
  timeout: string;
  waitFor: string;
  mobile: boolean;
  limit: string;
  maxDiscoveryDepth: string;
  includePaths: string;
  excludePaths: string;
  sitemap: 'include' | 'skip' | 'only';
  search: string;
  query: string;
  scrapeResults: boolean;
  urls: string;
  pdfMode: 'auto' | 'fast' | 'ocr';
}

const INITIAL: FormState = {
  url: '',
  formats: ['markdown'],
  onlyMainContent: true,
  actions: '',
  country: '',
  languages: '',
  maxAge: '',
  storeInCache: true,
  timeout: '',
  waitFor: '',
  mobile: false,
  limit: '',
  maxDiscoveryDepth: '',
  includePaths: '',
  excludePaths: '',
  sitemap: 'include',
  search: '',
  query: '',
  scrapeResults: false,
  urls: '',
  pdfMode: 'auto',
};

const list = (text: string) =>
  text
    .split(/[\n,]/)
    .map((item) => item.trim())
    .filter(Boolean);
const int = (text: string) => (text.trim() === '' ? undefined : Number(text));

/** The scrape options of the form (scrape, crawl's scrapeOptions, batch). */
function scrapeOptions(form: FormState, full: boolean): Record<string, unknown> {
  const options: Record<string, unknown> = { formats: form.formats };
  if (!form.onlyMainContent) options['onlyMainContent'] = false;
  if (!full) return options;
  if (form.actions.trim()) {
    try {
      options['actions'] = JSON.parse(form.actions);
    } catch {
      throw new Error('Actions must be a JSON array, e.g. [{"type":"wait","milliseconds":500}]');
    }
  }
  if (form.country.trim() || form.languages.trim())
    options['location'] = {
      ...(form.country.trim() ? { country: form.country.trim().toUpperCase() } : {}),
      ...(form.languages.trim() ? { languages: list(form.languages) } : {}),
    };
  if (int(form.maxAge) !== undefined) options['maxAge'] = int(form.maxAge);
  if (!form.storeInCache) options['storeInCache'] = false;
  if (int(form.timeout) !== undefined) options['timeout'] = int(form.timeout);
  if (int(form.waitFor) !== undefined) options['waitFor'] = int(form.waitFor);
  if (form.mobile) options['mobile'] = true;
  return options;
}

/** The request body the form describes (parse: its options). */
export function requestBody(operation: Operation, form: FormState): Record<string, unknown> {
  switch (operation) {
    case 'scrape':
      return { url: form.url.trim(), ...scrapeOptions(form, true) };
    case 'crawl':
      return {
        url: form.url.trim(),
        ...(int(form.limit) !== undefined ? { limit: int(form.limit) } : {}),
        ...(int(form.maxDiscoveryDepth) !== undefined
          ? { maxDiscoveryDepth: int(form.maxDiscoveryDepth) }
          : {}),
        ...(list(form.includePaths).length ? { includePaths: list(form.includePaths) } : {}),
        ...(list(form.excludePaths).length ? { excludePaths: list(form.excludePaths) } : {}),
        ...(form.sitemap !== 'include' ? { sitemap: form.sitemap } : {}),
        scrapeOptions: scrapeOptions(form, false),
      };
    case 'map':
      return {
        url: form.url.trim(),
        ...(form.search.trim() ? { search: form.search.trim() } : {}),
        ...(int(form.limit) !== undefined ? { limit: int(form.limit) } : {}),
      };
    case 'search':
      return {
        query: form.query.trim(),
        ...(int(form.limit) !== undefined ? { limit: int(form.limit) } : {}),
        ...(form.scrapeResults ? { scrapeOptions: scrapeOptions(form, false) } : {}),
      };
    case 'batch':
      return { urls: list(form.urls), ...scrapeOptions(form, false) };
    case 'parse':
      return form.pdfMode === 'auto' ? {} : { parsers: [{ type: 'pdf', mode: form.pdfMode }] };
  }
}

type Result =
  | { operation: 'scrape' | 'parse'; document: Record<string, unknown> }
  | { operation: 'map'; links: { url: string; title?: string; description?: string }[]; raw: unknown }
  | { operation: 'search'; raw: Record<string, unknown> };

function isOperation(value: string | undefined): value is Operation {
  return OPERATIONS.some((operation) => operation.id === value);
}

/** Try every operation from a form, see the result, and the same request as curl, JS and Python. */
export function PlaygroundPage({ operation: requested }: { operation?: string }) {
  const api = useTeamApi();
  const operation: Operation = isOperation(requested) ? requested : 'scrape';
  const [form, setForm] = useState<FormState>(INITIAL);
  const [file, setFile] = useState<File>();
  const [result, setResult] = useState<Result>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [language, setLanguage] = useState<'curl' | 'js' | 'python'>('curl');
  const set =
    <K extends keyof FormState>(key: K) =>
    (value: FormState[K]) =>
      setForm((previous) => ({ ...previous, [key]: value }));

  const built = useMemo(() => {
    try {
      return { body: requestBody(operation, form) };
    } catch (problem) {
      return { problem: problem as Error };
    }
  }, [operation, form]);
  const snippetInput = { operation, body: built.body ?? {}, origin: location.origin, fileName: file?.name };
  const snippet =
    language === 'curl'
      ? curlSnippet(snippetInput)
      : language === 'js'
        ? jsSnippet(snippetInput)
        : pythonSnippet(snippetInput);

  const run = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    setResult(undefined);
    if (!built.body) return setError(built.problem);
    setBusy(true);
    try {
      if (operation === 'parse') {
        if (!file) throw new Error('Choose a file to parse');
        const upload = new FormData();
        upload.append('file', file, file.name);
        upload.append('options', JSON.stringify(built.body));
        const answer = await api.upload<{ data: Record<string, unknown> }>(PATHS.parse, upload);
        setResult({ operation, document: answer.data });
      } else if (operation === 'crawl' || operation === 'batch') {
        const started = await api.post<{ id: string }>(PATHS[operation], built.body);
        navigate(`/jobs/${started.id}`, { kind: operation === 'crawl' ? 'crawl' : 'batch_scrape' });
      } else if (operation === 'scrape') {
        const answer = await api.post<{ data: Record<string, unknown> }>(PATHS.scrape, built.body);
        setResult({ operation, document: answer.data });
      } else if (operation === 'map') {
        const answer = await api.post<{ links: { url: string; title?: string; description?: string }[] }>(
          PATHS.map,
          built.body,
        );
        setResult({ operation, links: answer.links, raw: answer });
      } else {
        setResult({ operation, raw: await api.post<Record<string, unknown>>(PATHS.search, built.body) });
      }
    } catch (problem) {
      setError(problem);
    } finally {
      setBusy(false);
    }
  };

  const needsUrl = operation === 'scrape' || operation === 'crawl' || operation === 'map';
  return (
    <div class="playground">
      <PageTitle title="Playground">Playground</PageTitle>
      <nav aria-label="Operations" class="operation-links">
        <ul>
          {OPERATIONS.map((item) => (
            <li key={item.id}>
              <a href={`#/playground/${item.id}`} aria-current={item.id === operation ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="split">
        <form class="card" onSubmit={run} aria-label={`${operation} request`}>
          <h2>{OPERATIONS.find((item) => item.id === operation)?.label} request</h2>
          {needsUrl && (
            <Field
              label="URL"
              type="url"
              value={form.url}
              onInput={set('url')}
              required
              placeholder="https://example.com"
            />
          )}
          {operation === 'search' && (
            <Field label="Query" value={form.query} onInput={set('query')} required />
          )}
          {operation === 'batch' && (
            <TextArea label="URLs (one per line)" value={form.urls} onInput={set('urls')} rows={5} required />
          )}
          {operation === 'parse' && (
            <div class="field">
              <label for="parse-file">File (PDF, DOCX, XLSX, PPTX, HTML, images…)</label>
              <input
                id="parse-file"
                type="file"
                required
                onChange={(event) => setFile((event.currentTarget as HTMLInputElement).files?.[0])}
              />
            </div>
          )}
          {operation === 'parse' && (
            <Select
              label="PDF mode"
              value={form.pdfMode}
              onChange={set('pdfMode')}
              options={[
                { value: 'auto', label: 'auto (text layer, OCR where needed)' },
                { value: 'fast', label: 'fast (text layer only)' },
                { value: 'ocr', label: 'ocr (every page)' },
              ]}
            />
          )}
          {(operation === 'crawl' || operation === 'map' || operation === 'search') && (
            <Field
              label={operation === 'crawl' ? 'Page limit' : 'Result limit'}
              type="number"
              min={1}
              value={form.limit}
              onInput={set('limit')}
            />
          )}
          {operation === 'map' && (
            <Field label="Search within the site (optional)" value={form.search} onInput={set('search')} />
          )}
          {operation === 'crawl' && (
            <>
              <Field
                label="Maximum discovery depth"
                type="number"
                min={0}
                value={form.maxDiscoveryDepth}
                onInput={set('maxDiscoveryDepth')}
              />
              <Field
                label="Include paths (regular expressions, comma-separated)"
                value={form.includePaths}
                onInput={set('includePaths')}
              />
              <Field
                label="Exclude paths (regular expressions, comma-separated)"
                value={form.excludePaths}
                onInput={set('excludePaths')}
              />
              <Select
                label="Sitemap"
                value={form.sitemap}
                onChange={set('sitemap')}
                options={[
                  { value: 'include', label: 'include' },
                  { value: 'skip', label: 'skip' },
                  { value: 'only', label: 'only' },
                ]}
              />
            </>
          )}
          {operation === 'search' && (
            <Checkbox
              label="Scrape each result"
              checked={form.scrapeResults}
              onChange={set('scrapeResults')}
            />
          )}
          {(operation === 'scrape' ||
            operation === 'crawl' ||
            operation === 'batch' ||
            (operation === 'search' && form.scrapeResults)) && (
            <>
              <CheckGroup
                legend="Formats"
                options={FORMATS}
                selected={form.formats}
                onChange={set('formats')}
              />
              <Checkbox
                label="Main content only"
                checked={form.onlyMainContent}
                onChange={set('onlyMainContent')}
              />
            </>
          )}
          {operation === 'scrape' && (
            <details>
              <summary>Actions, location and cache</summary>
              <TextArea
                label="Actions (JSON array)"
                value={form.actions}
                onInput={set('actions')}
                rows={4}
                hint='e.g. [{"type":"click","selector":"#more"},{"type":"wait","milliseconds":500}]'
              />
              <Field
                label="Country (ISO code)"
                value={form.country}
                onInput={set('country')}
                placeholder="US"
              />
              <Field
                label="Languages (comma-separated)"
                value={form.languages}
                onInput={set('languages')}
                placeholder="en-US, de"
              />
              <Field
                label="Maximum cache age (ms)"
                type="number"
                min={0}
                value={form.maxAge}
                onInput={set('maxAge')}
                hint="0 always fetches fresh; default 2 days"
              />
              <Checkbox
                label="Store the result in the cache"
                checked={form.storeInCache}
                onChange={set('storeInCache')}
              />
              <Field
                label="Timeout (ms)"
                type="number"
                min={1000}
                value={form.timeout}
                onInput={set('timeout')}
              />
              <Field
                label="Wait after load (ms)"
                type="number"
                min={0}
                value={form.waitFor}
                onInput={set('waitFor')}
              />
              <Checkbox label="Mobile" checked={form.mobile} onChange={set('mobile')} />
            </details>
          )}
          <Button type="submit" variant="primary" busy={busy}>
            {operation === 'crawl'
              ? 'Start crawl'
              : operation === 'batch'
                ? 'Start batch'
                : `Run ${operation}`}
          </Button>
          {built.problem && <p class="hint">{built.problem.message}</p>}
        </form>
        <section class="card" aria-labelledby="snippet-title">
          <h2 id="snippet-title">The same request in code</h2>
          <Tabs
            label="Snippet language"
            tabs={[
              { id: 'curl', label: 'curl' },
              { id: 'js', label: 'JS SDK' },
              { id: 'python', label: 'Python SDK' },
            ]}
            selected={language}
            onSelect={setLanguage}
          >
            <CodeBlock code={snippet} label={`${language} snippet`} />
          </Tabs>
          <p class="hint">Set QUARRY_API_KEY to your key; the console never prints it.</p>
        </section>
      </div>
      <section aria-labelledby="result-title" aria-live="polite" aria-busy={busy ? 'true' : 'false'}>
        <h2 id="result-title">Result</h2>
        {busy && <p role="status">Running…</p>}
        <ErrorMessage error={error} />
        {!busy && !error && !result && <p class="hint">Run a request to see its result here.</p>}
        {result && (result.operation === 'scrape' || result.operation === 'parse') && (
          <DocumentView document={result.document} label="Result document" />
        )}
        {result?.operation === 'map' && (
          <>
            <p>{result.links.length} links</p>
            <ul class="links">
              {result.links.map((link) => (
                <li key={link.url}>
                  <ExternalLink url={link.url} />
                  {link.title ? ` — ${link.title}` : ''}
                </li>
              ))}
            </ul>
          </>
        )}
        {result?.operation === 'search' && (
          <CodeBlock code={formatJson(result.raw)} label="search response JSON" />
        )}
      </section>
    </div>
  );
}
