/** C1 control characters: next to never in real text, the trace of UTF-8 bytes read as Latin-1. */
const C1_CONTROL = /[\u0080-\u009f]/;
/** One UTF-8 sequence (lead byte, then its continuation bytes) read as Latin-1 characters. */
const LATIN1_UTF8 =
  /[\u00c2-\u00df][\u0080-\u00bf]|[\u00e0-\u00ef][\u0080-\u00bf]{2}|[\u00f0-\u00f4][\u0080-\u00bf]{3}/g;

function redecode(sequence: string): string {
  const bytes = Uint8Array.from(sequence, (c) => c.charCodeAt(0));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return sequence;
  }
}

/**
 * Repairs text that went through UTF-8 → Latin-1 → UTF-8 on its way to the page ("weâ\u0080\u0099ll"
 * for "we’ll"), which a browser shows as is: when the text holds C1 control characters, each
 * Latin-1-read UTF-8 sequence is decoded back. Text without C1 controls is returned unchanged.
 */
export function repairMojibake(text: string): string {
  if (!C1_CONTROL.test(text)) return text;
  return text.replace(LATIN1_UTF8, redecode);
}
