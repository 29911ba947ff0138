/**
 * A Map of at most `capacity` entries for a process's memos (robots rules, crawl plans, URL keys):
 * adding a key when it is full drops the oldest one, in insertion order. Replacing a key's value
 * drops nothing.
 */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly capacity: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.capacity && !this.has(key)) {
      const oldest = this.keys().next();
      if (!oldest.done) this.delete(oldest.value);
    }
    return super.set(key, value);
  }
}
