import { parsePatch } from 'diff';

export interface DiffChange {
  type: 'add' | 'del' | 'normal';
  add?: true;
  del?: true;
  normal?: true;
  /** Line number (add: new file, del: old file). */
  ln?: number;
  /** Old and new line numbers of an unchanged line. */
  ln1?: number;
  ln2?: number;
  content: string;
}

export interface DiffChunk {
  content: string;
  changes: DiffChange[];
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
}

export interface DiffFile {
  from: string;
  to: string;
  chunks: DiffChunk[];
  additions: number;
  deletions: number;
}

/**
 * The parsed form of a git-style diff (the `parse-diff` shape the reference's monitor `diff.json`
 * carries for markdown targets): files → chunks → changes with line numbers.
 */
export function parseGitDiff(text: string): { files: DiffFile[] } {
  const files: DiffFile[] = [];
  for (const patch of parsePatch(text)) {
    let additions = 0;
    let deletions = 0;
    const chunks = patch.hunks.map((hunk) => {
      let oldLine = hunk.oldStart;
      let newLine = hunk.newStart;
      const changes: DiffChange[] = [];
      for (const line of hunk.lines) {
        if (line.startsWith('+')) {
          additions += 1;
          changes.push({ type: 'add', add: true, ln: newLine++, content: line });
        } else if (line.startsWith('-')) {
          deletions += 1;
          changes.push({ type: 'del', del: true, ln: oldLine++, content: line });
        } else if (line.startsWith(' ') || line === '') {
          changes.push({ type: 'normal', normal: true, ln1: oldLine++, ln2: newLine++, content: line });
        }
      }
      return {
        content: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
        changes,
        oldStart: hunk.oldStart,
        oldLines: hunk.oldLines,
        newStart: hunk.newStart,
        newLines: hunk.newLines,
      };
    });
    files.push({
      from: stripPrefix(patch.oldFileName),
      to: stripPrefix(patch.newFileName),
      chunks,
      additions,
      deletions,
    });
  }
  return { files };
}

/** Lines a diff adds and removes (for the judge and email summaries). */
export function changedLines(text: string): { added: string[]; removed: string[] } {
  const added: string[] = [];
  const removed: string[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) added.push(line.slice(1));
    else if (line.startsWith('-')) removed.push(line.slice(1));
  }
  return { added, removed };
}

/** `{field: {previous, current}}` over the top-level fields of two extractions, and whether any differs. */
export function jsonFieldDiff(
  previous: unknown,
  current: unknown,
): { fields: Record<string, { previous: unknown; current: unknown }>; differs: boolean } {
  const before = asRecord(previous);
  const after = asRecord(current);
  const fields: Record<string, { previous: unknown; current: unknown }> = {};
  let differs = false;
  for (const key of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const old = before[key] ?? null;
    const now = after[key] ?? null;
    fields[key] = { previous: old, current: now };
    if (stableJson(old) !== stableJson(now)) differs = true;
  }
  return { fields, differs };
}

function asRecord(value: unknown): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  return value === undefined || value === null ? {} : { value };
}

/** JSON with sorted object keys, so equal values compare equal. */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${stableJson(member)}`).join(',')}}`;
}

function stripPrefix(name: string | undefined): string {
  return (name ?? '').replace(/^[ab]\//, '');
}
