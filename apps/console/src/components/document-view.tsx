import { useMemo, useState } from 'preact/hooks';

import { sameOriginBlob } from '../lib/api.client';
import { formatJson } from '../lib/format';
import { renderMarkdown } from '../lib/markdown';
import { CodeBlock, ExternalLink, Tabs } from './ui';

type View = 'rendered' | 'raw' | 'links' | 'screenshot' | 'json';

/** A scraped or parsed document: rendered markdown, raw markdown, links, screenshot and the JSON as answered. */
export function DocumentView({ document, label }: { document: Record<string, unknown>; label: string }) {
  const markdown = typeof document['markdown'] === 'string' ? document['markdown'] : undefined;
  const links = Array.isArray(document['links'])
    ? (document['links'] as unknown[]).filter((link): link is string => typeof link === 'string')
    : undefined;
  const screenshotUrl = typeof document['screenshot'] === 'string' ? document['screenshot'] : undefined;
  const screenshot = screenshotUrl
    ? screenshotUrl.startsWith('data:image/')
      ? screenshotUrl
      : sameOriginBlob(screenshotUrl)
    : undefined;
  const tabs: { id: View; label: string }[] = [
    ...(markdown !== undefined
      ? [
          { id: 'rendered' as const, label: 'Markdown' },
          { id: 'raw' as const, label: 'Raw markdown' },
        ]
      : []),
    ...(links ? [{ id: 'links' as const, label: `Links (${links.length})` }] : []),
    ...(screenshotUrl ? [{ id: 'screenshot' as const, label: 'Screenshot' }] : []),
    { id: 'json', label: 'JSON' },
  ];
  const [selected, setSelected] = useState<View>(tabs[0].id);
  const view = tabs.some((tab) => tab.id === selected) ? selected : tabs[0].id;
  const rendered = useMemo(
    () => (markdown !== undefined && view === 'rendered' ? renderMarkdown(markdown) : null),
    [markdown, view],
  );
  const metadata = (document['metadata'] ?? {}) as Record<string, unknown>;
  return (
    <section class="document" aria-label={label}>
      <p class="document-meta">
        <strong>{String(metadata['title'] ?? 'Untitled')}</strong> —{' '}
        {String(metadata['sourceURL'] ?? metadata['url'] ?? '')}
        {metadata['statusCode'] !== undefined ? ` (HTTP ${String(metadata['statusCode'])})` : ''}
      </p>
      {typeof document['warning'] === 'string' && <p class="warning">Warning: {document['warning']}</p>}
      <Tabs label={`${label} views`} tabs={tabs} selected={view} onSelect={setSelected}>
        {view === 'rendered' && <div class="rendered">{rendered}</div>}
        {view === 'raw' && <CodeBlock code={markdown ?? ''} label="raw markdown" />}
        {view === 'links' && (
          <ul class="links">
            {(links ?? []).map((link, index) => (
              <li key={`${index}-${link}`}>
                <ExternalLink url={link} />
              </li>
            ))}
          </ul>
        )}
        {view === 'screenshot' &&
          (screenshot ? (
            <img
              class="screenshot"
              src={screenshot}
              alt={`Screenshot of ${String(metadata['sourceURL'] ?? 'the page')}`}
            />
          ) : (
            <p>
              The screenshot is stored elsewhere: <code>{screenshotUrl}</code>
            </p>
          ))}
        {view === 'json' && <CodeBlock code={formatJson(document)} label="document JSON" />}
      </Tabs>
    </section>
  );
}
