import { askedDay, daysCovered } from './opening-days.util';

describe('opening days', () => {
  it('reads ranges (also across the week end), lists and words for several days', () => {
    expect([...daysCovered('Tue–Fri')]).toEqual([1, 2, 3, 4]);
    expect([...daysCovered('Sun–Mon')].sort()).toEqual([0, 6]);
    expect([...daysCovered('Monday to Saturday')]).toEqual([0, 1, 2, 3, 4, 5]);
    expect([...daysCovered('Sat, Sun')]).toEqual([5, 6]);
    expect([...daysCovered('Weekdays')]).toEqual([0, 1, 2, 3, 4]);
    expect(daysCovered('Opening hours').size).toBe(0);
  });

  it('finds the day of a question about opening', () => {
    expect(askedDay('Are they open on Monday')).toBe(0);
    expect(askedDay('Is the museum open on Sundays')).toBe(6);
    expect(askedDay('Is there parking on Monday')).toBeUndefined();
  });
});
