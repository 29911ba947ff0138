/**
 * Sets `name` on a microdata item, a repeated property becoming an array appended to in place (a
 * copy per value was quadratic: 50,000 offers took 23 s). Values are strings or items, never arrays
 * themselves, so an array found is one this made.
 */
export function addProperty(item: Record<string, unknown>, name: string, value: unknown): void {
  const existing = item[name];
  if (existing === undefined) item[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else item[name] = [existing, value];
}
