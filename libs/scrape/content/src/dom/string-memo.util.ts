/**
 * A pure function of a string, remembered: class and id values repeat across the elements of a page
 * and across pages (`col-md-6`, `post-content`), and testing each against a dozen patterns was a
 * noticeable share of the pipeline. The cache is dropped whole when it reaches `max` entries, so it
 * stays bounded whatever pages come through.
 */
export function memoizeByString<T extends NonNullable<unknown>>(
  compute: (key: string) => T,
  max = 8192,
): (key: string) => T {
  const cache = new Map<string, T>();
  return (key: string): T => {
    let value = cache.get(key);
    if (value === undefined) {
      value = compute(key);
      if (cache.size >= max) cache.clear();
      cache.set(key, value);
    }
    return value;
  };
}
