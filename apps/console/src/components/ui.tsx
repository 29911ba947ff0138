import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';

import { ApiError } from '../lib/api.client';
import { safeUrl } from '../lib/markdown';

/** A labelled text, number, password or URL input. */
export function Field(props: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  type?: 'text' | 'url' | 'number' | 'password' | 'search';
  hint?: string;
  required?: boolean;
  placeholder?: string;
  min?: number;
  max?: number;
  autoComplete?: string;
  name?: string;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        value={props.value}
        required={props.required}
        placeholder={props.placeholder}
        min={props.min}
        max={props.max}
        autoComplete={props.autoComplete ?? 'off'}
        spellcheck={false}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onInput={(event) => props.onInput((event.currentTarget as HTMLInputElement).value)}
      />
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
    </div>
  );
}

export function TextArea(props: {
  label: string;
  value: string;
  onInput: (value: string) => void;
  rows?: number;
  hint?: string;
  required?: boolean;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        rows={props.rows ?? 4}
        value={props.value}
        required={props.required}
        spellcheck={false}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        onInput={(event) => props.onInput((event.currentTarget as HTMLTextAreaElement).value)}
      />
      {props.hint && (
        <p class="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
    </div>
  );
}

export function Select<T extends string>(props: {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange: (value: T) => void;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        value={props.value}
        onChange={(event) => props.onChange((event.currentTarget as HTMLSelectElement).value as T)}
      >
        {props.options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Checkbox(props: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId();
  return (
    <div class="check">
      <input
        id={id}
        type="checkbox"
        checked={props.checked}
        onChange={(event) => props.onChange((event.currentTarget as HTMLInputElement).checked)}
      />
      <label for={id}>{props.label}</label>
    </div>
  );
}

/** A group of checkboxes under one legend. */
export function CheckGroup<T extends string>(props: {
  legend: string;
  options: { value: T; label: string }[];
  selected: T[];
  onChange: (selected: T[]) => void;
}) {
  return (
    <fieldset class="check-group">
      <legend>{props.legend}</legend>
      {props.options.map((option) => (
        <Checkbox
          key={option.value}
          label={option.label}
          checked={props.selected.includes(option.value)}
          onChange={(checked) =>
            props.onChange(
              checked
                ? [...props.selected, option.value]
                : props.selected.filter((value) => value !== option.value),
            )
          }
        />
      ))}
    </fieldset>
  );
}

export function Button(props: {
  children: ComponentChildren;
  onClick?: () => void;
  type?: 'button' | 'submit';
  variant?: 'primary' | 'secondary' | 'danger';
  disabled?: boolean;
  busy?: boolean;
  label?: string;
}) {
  return (
    <button
      type={props.type ?? 'button'}
      class={`button ${props.variant ?? 'secondary'}`}
      disabled={props.disabled || props.busy}
      aria-busy={props.busy ? 'true' : undefined}
      aria-label={props.label}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}

/** An API error as the user should read it: the message, the code and the validation details. */
export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const api = error instanceof ApiError ? error : undefined;
  return (
    <div class="error" role="alert">
      <p>
        <strong>{api ? (api.status ? `Error ${api.status}` : 'Network error') : 'Error'}:</strong>{' '}
        {error instanceof Error ? error.message : String(error)}
        {api?.code ? <span class="code"> ({api.code})</span> : null}
      </p>
      {api?.details !== undefined && api.details !== null ? (
        <pre>{JSON.stringify(api.details, null, 2)}</pre>
      ) : null}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="loading" role="status">
      {label}
    </p>
  );
}

const STATUS_CLASS: Record<string, string> = {
  completed: 'ok',
  succeeded: 'ok',
  ready: 'ok',
  active: 'busy',
  scraping: 'busy',
  processing: 'busy',
  running: 'busy',
  queued: 'idle',
  paused: 'idle',
  failed: 'bad',
  cancelled: 'idle',
  changed: 'warn',
  new: 'busy',
  removed: 'bad',
  error: 'bad',
  same: 'idle',
  partial: 'warn',
};

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge ${STATUS_CLASS[status] ?? 'idle'}`}>{status}</span>;
}

/** Accessible tabs: arrow keys move between tabs, the panel follows the selected tab. */
export function Tabs<T extends string>(props: {
  label: string;
  tabs: { id: T; label: string }[];
  selected: T;
  onSelect: (id: T) => void;
  children: ComponentChildren;
}) {
  const base = useId();
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const move = (event: JSX.TargetedKeyboardEvent<HTMLElement>) => {
    const index = props.tabs.findIndex((tab) => tab.id === props.selected);
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    let next = step ? (index + step + props.tabs.length) % props.tabs.length : -1;
    if (event.key === 'Home') next = 0;
    if (event.key === 'End') next = props.tabs.length - 1;
    if (next < 0) return;
    event.preventDefault();
    props.onSelect(props.tabs[next].id);
    refs.current[props.tabs[next].id]?.focus();
  };
  return (
    <div class="tabs">
      <div role="tablist" aria-label={props.label} onKeyDown={move}>
        {props.tabs.map((tab) => (
          <button
            key={tab.id}
            ref={(element) => {
              refs.current[tab.id] = element;
            }}
            type="button"
            role="tab"
            id={`${base}-${tab.id}`}
            aria-selected={tab.id === props.selected}
            aria-controls={`${base}-panel`}
            tabIndex={tab.id === props.selected ? 0 : -1}
            onClick={() => props.onSelect(tab.id)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-${props.selected}`} tabIndex={0}>
        {props.children}
      </div>
    </div>
  );
}

/** A code sample with a copy button. */
export function CodeBlock({ code, label }: { code: string; label: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => setCopied(false), [code]);
  const copy = () =>
    navigator.clipboard?.writeText(code).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <div class="code-block">
      <pre aria-label={label} tabIndex={0}>
        <code>{code}</code>
      </pre>
      <Button onClick={copy} label={`Copy ${label}`}>
        {copied ? 'Copied' : 'Copy'}
      </Button>
    </div>
  );
}

/** A labelled progress bar (a native progress element). */
export function ProgressBar({ value, max, label }: { value: number; max: number; label: string }) {
  const id = useId();
  const percent = max > 0 ? Math.round((Math.min(value, max) / max) * 100) : 0;
  return (
    <div class="progress">
      <label for={id}>
        {label}: {value} / {max} ({percent} %)
      </label>
      <progress id={id} value={Math.min(value, max)} max={Math.max(max, 1)}>
        {percent} %
      </progress>
    </div>
  );
}

/** Loads data with the page: `reload()` runs the loader again. */
export function useLoad<T>(
  load: () => Promise<T>,
  deps: unknown[],
): { data?: T; error?: unknown; loading: boolean; reload: () => void } {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let cancelled = false;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => !cancelled && setState({ data, loading: false }),
      (error: unknown) => !cancelled && setState({ error, loading: false }),
    );
    return () => {
      cancelled = true;
    };
  }, [...deps, tick]); // the caller lists what the loader reads
  return { ...state, reload: () => setTick((value) => value + 1) };
}

/** The page heading, focused when the view changes so screen readers announce it. */
export function PageTitle({ children, title }: { children: ComponentChildren; title: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · Quarry console`;
    ref.current?.focus();
  }, [title]);
  return (
    <h1 tabIndex={-1} ref={ref}>
      {children}
    </h1>
  );
}

/** A link to a scraped or discovered URL (http(s)/mailto only, opened apart from the console); plain text otherwise. */
export function ExternalLink({ url }: { url: string }) {
  const href = safeUrl(url);
  return href ? (
    <a href={href} rel="noopener noreferrer nofollow" target="_blank">
      {url}
    </a>
  ) : (
    <>{url}</>
  );
}
