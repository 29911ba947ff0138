import { BoundedMap } from './bounded-map.util';

describe('BoundedMap', () => {
  it('drops the oldest entry when a new key is added to a full map', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('c', 3);
    expect([...map.entries()]).toEqual([
      ['b', 2],
      ['c', 3],
    ]);
  });

  it('drops nothing when a key already held gets a new value', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1).set('b', 2).set('a', 10);
    expect([...map.entries()]).toEqual([
      ['a', 10],
      ['b', 2],
    ]);
  });
});
