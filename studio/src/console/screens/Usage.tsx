/** Usage: renders and credits per day, by format and by source, as charts with the numbers beside. */
import type { Usage } from '@platen/client';
import { useState } from 'preact/hooks';
import { call } from '../client.ts';
import { Empty, Show, useLoad } from '../ui.tsx';

type UsageRow = Usage['days'][number];

const COLORS: Record<string, string> = {
  png: '#4f46e5',
  jpeg: '#0891b2',
  pdf: '#b45309',
  api: '#4f46e5',
  embed: '#059669',
  mcp: '#db2777',
  url: '#b45309',
  console: '#4b5563',
  other: '#9ca3af',
};

function daysFrom(since: string, count: number): string[] {
  const start = new Date(`${since}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) =>
    new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10),
  );
}

function Chart(props: {
  title: string;
  rows: UsageRow[];
  days: string[];
  by: 'format' | 'source';
  measure: 'renders' | 'credits';
}) {
  const { rows, days, by, measure } = props;
  const keys = [...new Set(rows.map((r) => r[by]))].sort();
  const totals = days.map((day) => rows.filter((r) => r.day === day).reduce((sum, r) => sum + r[measure], 0));
  const max = Math.max(1, ...totals);
  const width = 640;
  const height = 180;
  const bar = width / days.length;
  return (
    <figure class="console-card console-chart">
      <figcaption>
        <h2>{props.title}</h2>
        <ul class="console-legend">
          {keys.map((key) => (
            <li key={key}>
              <span style={{ background: COLORS[key] ?? '#9ca3af' }} aria-hidden="true" /> {key}:{' '}
              {rows.filter((r) => r[by] === key).reduce((sum, r) => sum + r[measure], 0)}
            </li>
          ))}
        </ul>
      </figcaption>
      <svg viewBox={`0 0 ${width} ${height + 20}`} role="img" aria-label={`${props.title}, per day`}>
        {days.map((day, i) => {
          let y = height;
          return (
            <g key={day}>
              <title>
                {day}: {totals[i]} {measure}
              </title>
              {keys.map((key) => {
                const value = rows
                  .filter((r) => r.day === day && r[by] === key)
                  .reduce((sum, r) => sum + r[measure], 0);
                const h = (value / max) * (height - 10);
                y -= h;
                return value ? (
                  <rect
                    key={key}
                    x={i * bar + 1}
                    y={y}
                    width={Math.max(1, bar - 2)}
                    height={h}
                    fill={COLORS[key] ?? '#9ca3af'}
                  />
                ) : null;
              })}
              {i % Math.ceil(days.length / 6) === 0 && (
                <text x={i * bar} y={height + 16} font-size="14" fill="#4b5563">
                  {day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

export function UsageScreen({ workspaceId }: { workspaceId: string }) {
  const [days, setDays] = useState(30);
  const usage = useLoad(
    () => call<{ since: string; days: UsageRow[] }>('GET', `/v1/usage?days=${days}`, { workspaceId }),
    `${workspaceId}/${days}`,
  );
  return (
    <section aria-labelledby="usage-title">
      <div class="console-row">
        <h1 id="usage-title" class="console-grow">
          Usage
        </h1>
        <label for="usage-days">Period</label>
        <select id="usage-days" value={days} onChange={(e) => setDays(Number(e.currentTarget.value))}>
          <option value={7}>7 days</option>
          <option value={30}>30 days</option>
          <option value={90}>90 days</option>
        </select>
      </div>
      <Show loaded={usage} what="usage">
        {(data) => {
          const range = daysFrom(data.since, days);
          if (data.days.length === 0) return <Empty>No renders in this period.</Empty>;
          return (
            <div class="console-charts">
              <Chart title="Renders by format" rows={data.days} days={range} by="format" measure="renders" />
              <Chart title="Renders by source" rows={data.days} days={range} by="source" measure="renders" />
              <Chart title="Credits by format" rows={data.days} days={range} by="format" measure="credits" />
              <Chart title="Credits by source" rows={data.days} days={range} by="source" measure="credits" />
            </div>
          );
        }}
      </Show>
    </section>
  );
}
