import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One document of a fixture file: `=== id ===` or `=== id | label ===` starts it. */
export interface FixtureSection {
  id: string;
  label?: string;
  body: string;
}

export function readSections(file: string): FixtureSection[] {
  const source = readFileSync(join(__dirname, '../fixtures', file), 'utf8');
  const sections: FixtureSection[] = [];
  for (const part of source.split(/^=== /m).slice(1)) {
    const newline = part.indexOf('\n');
    const [id, label] = part
      .slice(0, newline)
      .replace(/ ===\s*$/, '')
      .split('|')
      .map((value) => value.trim());
    sections.push({ id, label, body: part.slice(newline + 1).trim() });
  }
  return sections;
}
