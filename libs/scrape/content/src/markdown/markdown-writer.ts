/**
 * Streaming markdown output with block separation, line prefixes (block quotes, list indentation)
 * and HTML-like inline whitespace collapsing.
 */
export class MarkdownWriter {
  private readonly parts: string[] = [];
  private readonly prefixes: string[] = [];
  private pendingBreak = 0;
  private pendingSpace = false;
  private atStart = true;
  private lineStart = true;
  private marker: { depth: number; text: string } | undefined;

  /** Requests a line break (1) or a blank line (2) before the next content. */
  block(lines: 1 | 2): void {
    if (this.atStart || this.lineStart) return;
    this.pendingBreak = Math.max(this.pendingBreak, lines);
  }

  /** Requests a space before the next inline content (collapsed with others, dropped at line start). */
  space(): void {
    if (!this.lineStart) this.pendingSpace = true;
  }

  /** Forces a hard line break (`<br>`). */
  hardBreak(): void {
    if (this.atStart) return;
    if (this.lineStart) {
      this.parts.push('\n', this.prefix().trimEnd());
      return;
    }
    this.parts.push('  ');
    this.pendingBreak = Math.max(this.pendingBreak, 1);
    this.pendingSpace = false;
  }

  /** Writes pending breaks now, so that a prefix pushed next does not apply to them. */
  flushBreak(): void {
    if (this.pendingBreak === 0 || this.atStart) return;
    this.parts.push('\n');
    for (let i = 1; i < this.pendingBreak; i++) this.parts.push(this.prefix().trimEnd(), '\n');
    this.pendingBreak = 0;
    this.pendingSpace = false;
    this.lineStart = true;
  }

  pushPrefix(prefix: string, firstLineMarker?: string): void {
    this.flushBreak();
    this.prefixes.push(prefix);
    this.marker =
      firstLineMarker === undefined ? undefined : { depth: this.prefixes.length - 1, text: firstLineMarker };
  }

  popPrefix(): void {
    this.prefixes.pop();
    if (this.marker && this.marker.depth >= this.prefixes.length) this.marker = undefined;
  }

  /** Writes already-formatted markdown; embedded newlines continue under the current prefixes. */
  write(text: string): void {
    if (text === '') return;
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) {
        this.parts.push('\n');
        this.lineStart = true;
        this.pendingSpace = false;
        if (lines[i] === '') {
          this.parts.push(this.prefix().trimEnd());
          continue;
        }
      }
      if (lines[i] !== '') this.writeLine(lines[i]);
    }
  }

  /** Inline text: whitespace collapsed, leading/trailing whitespace becomes a pending space. */
  text(raw: string, escape: (s: string) => string): void {
    const collapsed = raw.replace(/[ \t\n\r\f\u00a0]+/g, ' ');
    if (collapsed === ' ' || collapsed === '') {
      if (collapsed === ' ') this.space();
      return;
    }
    if (collapsed.startsWith(' ')) this.space();
    this.writeLine(escape(collapsed.trim()));
    if (collapsed.endsWith(' ')) this.space();
  }

  /** Whether anything was written. */
  isEmpty(): boolean {
    return this.atStart;
  }

  toString(): string {
    return tidy(this.parts.join(''));
  }

  private writeLine(line: string): void {
    if (this.pendingBreak > 0 && !this.atStart) this.flushBreak();
    if (this.lineStart) {
      this.parts.push(this.prefix());
      this.marker = undefined;
      this.lineStart = false;
    } else if (this.pendingSpace) {
      this.parts.push(' ');
    }
    this.parts.push(line);
    this.pendingSpace = false;
    this.pendingBreak = 0;
    this.atStart = false;
  }

  private prefix(): string {
    if (!this.marker) return this.prefixes.join('');
    let out = '';
    for (let i = 0; i < this.prefixes.length; i++)
      out += i === this.marker.depth ? this.marker.text : this.prefixes[i];
    return out;
  }
}

const FENCE = /^[\s>]*(`{3,}|~{3,})/;

/** Trailing spaces only where they are a hard break; at most one blank line in a row outside code. */
function tidy(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const trimmed = line.trimEnd();
    const fenceMark = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      out.push(trimmed);
      if (fenceMark !== undefined && fenceMark[0] === fence[0] && fenceMark.length >= fence.length)
        fence = undefined;
      continue;
    }
    if (fenceMark !== undefined) fence = fenceMark;
    const next = lines[i + 1];
    const hardBreak = line.endsWith('  ') && trimmed !== '' && next !== undefined && next.trim() !== '';
    if (trimmed === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(hardBreak ? `${trimmed}  ` : trimmed);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}
