/** One line of one side: its number in that version, its text, and whether it changed. */
export interface SideLine {
  line: number;
  text: string;
  changed: boolean;
}

/** A row of a side-by-side diff: a hunk header, or the old line beside the new one (either may be missing). */
export type DiffRow = { hunk: string } | { left: SideLine | null; right: SideLine | null };

/**
 * Lays a unified (git-style) diff out side by side: context lines on both sides, a run of removed
 * lines paired with the run of added lines that follows it, hunk headers kept as separators.
 */
export function sideBySide(unified: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let oldLine = 0;
  let newLine = 0;
  let removed: SideLine[] = [];
  let added: SideLine[] = [];
  const flush = () => {
    for (let index = 0; index < Math.max(removed.length, added.length); index += 1) {
      rows.push({ left: removed[index] ?? null, right: added[index] ?? null });
    }
    removed = [];
    added = [];
  };
  for (const raw of unified.split('\n')) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/.exec(raw);
    if (header) {
      flush();
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      rows.push({ hunk: raw });
    } else if (
      raw.startsWith('---') ||
      raw.startsWith('+++') ||
      raw.startsWith('diff ') ||
      raw.startsWith('index ') ||
      raw.startsWith('\\')
    ) {
      continue;
    } else if (raw.startsWith('-')) {
      removed.push({ line: oldLine++, text: raw.slice(1), changed: true });
    } else if (raw.startsWith('+')) {
      added.push({ line: newLine++, text: raw.slice(1), changed: true });
    } else if (raw.startsWith(' ')) {
      flush();
      const text = raw.slice(1);
      rows.push({
        left: { line: oldLine++, text, changed: false },
        right: { line: newLine++, text, changed: false },
      });
    }
  }
  flush();
  return rows;
}

/** Per-field changes of a JSON-extraction diff (`{field: {previous, current}}`). */
export function fieldChanges(
  json: Record<string, unknown> | undefined,
): { field: string; previous: unknown; current: unknown }[] {
  if (!json || 'files' in json) return [];
  return Object.entries(json)
    .filter(([, value]) => value && typeof value === 'object' && ('previous' in value || 'current' in value))
    .map(([field, value]) => ({
      field,
      previous: (value as { previous?: unknown }).previous,
      current: (value as { current?: unknown }).current,
    }));
}
