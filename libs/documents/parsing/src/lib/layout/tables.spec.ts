import { item } from './layout-test.util';
import { detectTables } from './tables';
import { buildLines } from './text-lines';

describe('detectTables', () => {
  it('finds an aligned grid and keeps its cells', () => {
    const rows = [
      ['Region', 'Pages', 'Share'],
      ['North', '1200', '41%'],
      ['South', '950', '32%'],
    ];
    const items = rows.flatMap((row, r) =>
      row.map((cell, c) => item(cell, 50 + c * 150, 100 + r * 20, 11, { bold: r === 0 })),
    );
    const { tables, remaining } = detectTables(buildLines(items), []);
    expect(tables).toHaveLength(1);
    expect(tables[0].cells).toEqual(rows);
    expect(remaining).toHaveLength(0);
  });

  it('does not mistake two columns of prose for a table', () => {
    const text = 'words that fill the whole column width of the page';
    const items = [0, 1, 2, 3, 4].flatMap((r) => [
      item(text, 50, 100 + r * 14),
      item(text, 330, 100 + r * 14),
    ]);
    expect(detectTables(buildLines(items), []).tables).toHaveLength(0);
  });

  it('needs three rows without rulings, two with them', () => {
    const items = [item('Key', 50, 100), item('Value', 250, 100), item('A', 50, 120), item('1', 250, 120)];
    expect(detectTables(buildLines(items), []).tables).toHaveLength(0);
    const rules = [
      { x0: 50, y0: 88, x1: 300, y1: 89 },
      { x0: 50, y0: 125, x1: 300, y1: 126 },
    ];
    expect(detectTables(buildLines(items), rules).tables[0]?.ruled).toBe(true);
  });

  it('merges a wrapped cell into the row above', () => {
    const items = [
      item('Name', 50, 100, 11, { bold: true }),
      item('Notes', 250, 100, 11, { bold: true }),
      item('Alpha', 50, 120),
      item('first line', 250, 120),
      item('second line', 250, 132),
      item('Beta', 50, 152),
      item('short', 250, 152),
    ];
    expect(detectTables(buildLines(items), []).tables[0]?.cells).toEqual([
      ['Name', 'Notes'],
      ['Alpha', 'first line second line'],
      ['Beta', 'short'],
    ]);
  });
});
