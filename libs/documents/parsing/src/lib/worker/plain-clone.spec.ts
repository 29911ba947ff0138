import { plainClone } from './plain-clone';

describe('plainClone (structuredClone with a fast path for plain data)', () => {
  const native = jest.fn((value: unknown, options?: Parameters<typeof structuredClone>[1]) =>
    structuredClone(value, options),
  );
  const sut = plainClone(native as unknown as typeof structuredClone);
  beforeEach(() => native.mockClear());

  it('copies plain data deeply, as structuredClone does, without the runtime clone', () => {
    const styles = Object.assign(Object.create(null) as object, { f1: { ascent: 0.9, vertical: false } });
    const message = {
      stream: 4,
      chunk: {
        items: [{ str: 'naïve', transform: [11, 0, 0, 11, 72, -0], hasEOL: true, missing: undefined }],
        styles,
        lang: null,
      },
      big: 10n,
    };
    const copy = sut(message) as typeof message;
    expect(copy).toEqual(structuredClone(message));
    expect(copy.chunk.items[0]).not.toBe(message.chunk.items[0]);
    expect(copy.chunk.items[0].transform).not.toBe(message.chunk.items[0].transform);
    expect(Object.is(copy.chunk.items[0].transform[5], -0)).toBe(true);
    expect(Object.getPrototypeOf(copy.chunk.styles)).toBe(Object.prototype);
    expect('missing' in copy.chunk.items[0]).toBe(true);
    expect(native).not.toHaveBeenCalled();
  });

  it('leaves anything else, and transfers, to the runtime clone', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(sut({ bytes })).toEqual({ bytes });
    const when = new Date(0);
    expect(sut([when])).toEqual([when]);
    expect(sut(new Map([[1, 2]]))).toEqual(new Map([[1, 2]]));
    const buffer = new ArrayBuffer(8);
    expect((sut({ buffer }, { transfer: [buffer] }) as { buffer: ArrayBuffer }).buffer.byteLength).toBe(8);
    expect(buffer.byteLength).toBe(0);
    expect(native).toHaveBeenCalledTimes(4);
  });

  it('throws what structuredClone throws for functions, and copes with cycles', () => {
    expect(() => sut({ run: () => 1 })).toThrow(expect.objectContaining({ name: 'DataCloneError' }));
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    const copy = sut(cyclic) as Record<string, unknown>;
    expect(copy['self']).toBe(copy);
  });
});
