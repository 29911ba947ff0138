import { dispatchShimCall, isShimMethod, SHIM_METHODS, ShimError, type ShimTarget } from './page-shim';

/** A fake page recording the calls that reach it (the boundary the dispatcher guards). */
function recordingTarget(): { target: ShimTarget; calls: [string, unknown[]][] } {
  const calls: [string, unknown[]][] = [];
  const target = Object.fromEntries(
    Object.keys(SHIM_METHODS).map((name) => [
      name,
      async (...args: unknown[]) => {
        calls.push([name, args]);
        return name === 'title' ? 'A title' : undefined;
      },
    ]),
  ) as unknown as ShimTarget;
  return { target, calls };
}

describe('page shim whitelist', () => {
  it('offers exactly the documented operations', () => {
    expect(Object.keys(SHIM_METHODS).sort()).toEqual(
      [
        'click',
        'content',
        'count',
        'evaluate',
        'fill',
        'getAttribute',
        'goBack',
        'goto',
        'hover',
        'innerHTML',
        'innerText',
        'inputValue',
        'isVisible',
        'keyboard.press',
        'keyboard.type',
        'press',
        'reload',
        'screenshot',
        'selectOption',
        'textContent',
        'title',
        'type',
        'url',
        'waitForSelector',
      ].sort(),
    );
  });

  it.each([
    'browser',
    'context',
    'exposeFunction',
    'constructor',
    '__proto__',
    'toString',
    'hasOwnProperty',
    'evaluateHandle',
    'setRequestInterception',
    42,
    null,
  ])('refuses %p without touching the page', async (name) => {
    const sut = recordingTarget();
    await expect(dispatchShimCall(sut.target, name, '[]')).rejects.toThrow(
      /is not available in the interact sandbox/,
    );
    expect(sut.calls).toEqual([]);
    expect(isShimMethod(name)).toBe(false);
  });

  it('refuses arguments that are not of the operation shape', async () => {
    const sut = recordingTarget();
    await expect(
      dispatchShimCall(sut.target, 'click', JSON.stringify([{ selector: '#a' }])),
    ).rejects.toBeInstanceOf(ShimError);
    await expect(dispatchShimCall(sut.target, 'goto', JSON.stringify([123]))).rejects.toThrow(
      /invalid arguments/,
    );
    await expect(dispatchShimCall(sut.target, 'fill', 'not json')).rejects.toThrow(/JSON array/);
    await expect(
      dispatchShimCall(sut.target, 'evaluate', JSON.stringify(['node', 'process.exit()', []])),
    ).rejects.toThrow(/invalid arguments/);
    await expect(
      dispatchShimCall(sut.target, 'waitForSelector', JSON.stringify(['#a', { timeout: 10_000_000 }])),
    ).rejects.toThrow(/invalid arguments/);
    expect(sut.calls).toEqual([]);
  });

  it('forwards a valid call with its parsed arguments and answers JSON', async () => {
    const sut = recordingTarget();
    await expect(dispatchShimCall(sut.target, 'title', '[]')).resolves.toBe('"A title"');
    // Missing options arrive as null from JSON and count as absent.
    await expect(
      dispatchShimCall(sut.target, 'click', JSON.stringify(['#send', null])),
    ).resolves.toBeUndefined();
    await dispatchShimCall(sut.target, 'fill', JSON.stringify(['#name', 'Ada']));
    await dispatchShimCall(sut.target, 'evaluate', JSON.stringify(['function', '(a) => a * 2', [21]]));
    await dispatchShimCall(sut.target, 'keyboard.press', JSON.stringify(['Enter']));
    expect(sut.calls).toEqual([
      ['title', []],
      ['click', ['#send', undefined]],
      ['fill', ['#name', 'Ada']],
      ['evaluate', ['function', '(a) => a * 2', [21]]],
      ['keyboard.press', ['Enter']],
    ]);
  });
});
