import { formatNumber, KIND_LABELS } from '../lib/format';

export interface Series {
  /** x label (a day). */
  label: string;
  /** value per stack key (endpoint). */
  values: Record<string, number>;
}

const PALETTE = [
  '#1f4e79',
  '#c0504d',
  '#4f8a3c',
  '#8064a2',
  '#d98c1f',
  '#2a8a8a',
  '#7f6a00',
  '#a23b72',
  '#555555',
  '#3b6fb6',
];

/**
 * A stacked bar chart as SVG (no chart library): one bar per day, one colour per endpoint, with a
 * text legend and the same figures as a table for screen readers and keyboard users.
 */
export function StackedBarChart({ title, series, unit }: { title: string; series: Series[]; unit: string }) {
  const keys = [...new Set(series.flatMap((entry) => Object.keys(entry.values)))].sort();
  const totals = series.map((entry) => Object.values(entry.values).reduce((sum, value) => sum + value, 0));
  const max = Math.max(1, ...totals);
  const width = 1000;
  const height = 200;
  const left = 48;
  const bottom = 24;
  const barWidth = (width - left) / Math.max(1, series.length);
  const color = (key: string) => PALETTE[keys.indexOf(key) % PALETTE.length];
  const total = totals.reduce((sum, value) => sum + value, 0);
  return (
    <figure class="chart">
      <figcaption>
        {title}: {formatNumber(total)} {unit} in {series.length} days
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${height + bottom}`}
        role="img"
        aria-label={`${title}, ${formatNumber(total)} ${unit} in total; the table below lists the figures`}
      >
        <line x1={left} y1={height} x2={width} y2={height} class="axis" />
        <text x={left - 6} y={12} class="tick" text-anchor="end">
          {formatNumber(max)}
        </text>
        <text x={left - 6} y={height} class="tick" text-anchor="end">
          0
        </text>
        {series.map((entry, index) => {
          let y = height;
          return (
            <g key={entry.label}>
              {keys.map((key) => {
                const value = entry.values[key] ?? 0;
                if (!value) return null;
                const barHeight = (value / max) * (height - 8);
                y -= barHeight;
                return (
                  <rect
                    key={key}
                    x={left + index * barWidth + 1}
                    y={y}
                    width={Math.max(1, barWidth - 2)}
                    height={barHeight}
                    fill={color(key)}
                  />
                );
              })}
              {/* every step-th day from the last one, so labels never overlap */}
              {(series.length - 1 - index) % Math.ceil(series.length / 8) === 0 && (
                <text
                  x={left + index * barWidth + barWidth / 2}
                  y={height + 16}
                  class="tick"
                  text-anchor="middle"
                >
                  {entry.label.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <ul class="legend" aria-label={`${title} legend`}>
        {keys.map((key) => (
          <li key={key}>
            <svg width="12" height="12" aria-hidden="true">
              <rect width="12" height="12" fill={color(key)} />
            </svg>{' '}
            {KIND_LABELS[key] ?? key}
          </li>
        ))}
      </ul>
      <details>
        <summary>{title}: figures per day</summary>
        <div class="table-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Day</th>
                {keys.map((key) => (
                  <th scope="col" key={key}>
                    {KIND_LABELS[key] ?? key}
                  </th>
                ))}
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {series.map((entry, index) => (
                <tr key={entry.label}>
                  <th scope="row">{entry.label}</th>
                  {keys.map((key) => (
                    <td key={key} class="number">
                      {formatNumber(entry.values[key] ?? 0)}
                    </td>
                  ))}
                  <td class="number">{formatNumber(totals[index])}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
