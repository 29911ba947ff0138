/**
 * How much longer `run` takes when its input grows from `small` to `large` units, with the result of
 * the large run. A bound on growth holds on any machine and beside any other work, where a bound on
 * wall time fails on a slow or busy one: `large / small` is the growth of linear work, its square
 * the growth of work that compares every unit with every other. Inputs are built before the clock
 * starts and a run at a quarter of `small` warms the code first.
 */
export function timeGrowth<Input, Result>(
  input: (units: number) => Input,
  run: (input: Input) => Result,
  small: number,
  large: number,
): { ratio: number; result: Result } {
  run(input(Math.max(1, Math.floor(small / 4))));
  const timed = (units: number) => {
    const built = input(units);
    const started = performance.now();
    const result = run(built);
    return { elapsed: performance.now() - started, result };
  };
  const before = timed(small);
  const after = timed(large);
  return { ratio: after.elapsed / Math.max(before.elapsed, 1), result: after.result };
}
