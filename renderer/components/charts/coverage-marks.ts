/**
 * What the history charts draw for time nobody observed and for rows inferred from the cluster:
 * gaps as grey hatched bands labelled with why ("not recording: app closed 18:02 → 08:41"), a
 * drift count broken (null) across them rather than drawn as 0, and inferred facts as hollow,
 * dashed markers whose tooltip says they were inferred from the cluster.
 */
import type { CoverageGap, CoverageGapReason, InferredFact, Point } from '../../../shared/contracts/history.ts';
import { escapeHtml } from './chart-style.ts';
import type { ChartTheme } from './chart-theme.ts';
import { formatDuration, formatMoment } from './time-format.ts';

const REASON_TEXT: Record<CoverageGapReason, string> = {
  'not-yet': 'history had not started',
  'app-closed': 'app closed',
  'context-switched': 'another context was selected',
  'recording-off': 'recording was switched off',
  'connection-lost': 'connection to the cluster lost',
  stopped: 'the app stopped unexpectedly',
  // Revoked rights, or a namespace taken off the accessible list: either way it could not be read.
  'access-withdrawn': 'its namespace could no longer be read',
};

/**
 * "not recording: app closed 18:02 → 08:41" (the date too when not today). A workload deleted
 * while out of view: "deleted while not observed, between 18:02 and 08:41 (...)": when is unknown.
 */
export function gapLabel(gap: CoverageGap, now: number): string {
  if (gap.deletedWithin) return `deleted while not observed, between ${formatMoment(gap.start, now)} and ${formatMoment(gap.end, now)} (${REASON_TEXT[gap.reason]})`;
  return `not recording: ${REASON_TEXT[gap.reason]} ${formatMoment(gap.start, now)} → ${formatMoment(gap.end, now)}`;
}

/** The gap covering `at`, if any. */
export function gapAt(gaps: readonly CoverageGap[] | undefined, at: number): CoverageGap | undefined {
  return gaps?.find((gap) => gap.start <= at && at < gap.end);
}

/** The part of [from, to] the gaps cover, in ms. */
export function unobservedMs(gaps: readonly CoverageGap[] | undefined, from: number, to: number): number {
  let total = 0;
  for (const gap of gaps ?? []) total += Math.max(0, Math.min(gap.end, to) - Math.max(gap.start, from));
  return total;
}

/** markArea items shading each gap: a grey hatched band, labelled (the label is its tooltip too). */
export function gapAreas(gaps: readonly CoverageGap[] | undefined, theme: ChartTheme, now: number, labelled = true): unknown[] {
  return (gaps ?? []).map((gap) => [
    {
      xAxis: gap.start,
      name: gapLabel(gap, now),
      itemStyle: {
        color: theme.faint,
        opacity: theme.dark ? 0.22 : 0.14,
        borderColor: theme.faint,
        borderWidth: 1,
        borderType: 'dashed',
        decal: { symbol: 'rect', dashArrayX: [1, 0], dashArrayY: [2, 5], rotation: Math.PI / 4, color: theme.faint },
      },
      label: { show: labelled, color: theme.muted, fontSize: 10, position: 'insideTop', overflow: 'truncate' },
    },
    { xAxis: gap.end },
  ]);
}

/**
 * A step series with no value inside any gap: a null where each gap starts, and the value in
 * effect again where it ends, so the line breaks instead of claiming 0 drifting.
 */
export function breakAtGaps(points: readonly Point[], gaps: readonly CoverageGap[] | undefined): Point[] {
  if (!gaps || gaps.length === 0) return points as Point[];
  const valueAt = (at: number): number | null => {
    let value: number | null = null;
    for (const [time, v] of points) {
      if (time > at) break;
      value = v;
    }
    return value;
  };
  const out: Point[] = points.filter(([at]) => !gapAt(gaps, at));
  for (const gap of gaps) {
    out.push([gap.start, null]);
    const last = points.at(-1);
    if (last && gap.end <= last[0]) out.push([gap.end, valueAt(gap.end)]);
  }
  return out.sort((a, b) => a[0] - b[0] || (a[1] === null ? -1 : 1));
}

/** The tooltip of an inferred fact: what, when (or that the time is unknown), and that it was inferred. */
export function inferredTooltip(fact: InferredFact, now: number): string {
  const when = fact.at === null ? 'time unknown' : `${formatMoment(fact.at, now)}${fact.end !== null ? ` → ${formatMoment(fact.end, now)}` : ''}`;
  const object = `${fact.object.kind} ${fact.object.namespace ? `${fact.object.namespace}/` : ''}${fact.object.name}`;
  return `<div style="font-weight:600">${escapeHtml(fact.detail)}</div><div style="opacity:.7;font-size:11px">${escapeHtml(when)} · ${escapeHtml(object)}</div><div style="margin-top:4px;font-style:italic">inferred from the cluster, not observed</div>`;
}

/** Id of the inferred markers' series (its data index is the fact's index among the timed ones). */
export const INFERRED_SERIES_ID = 'inferred';

/** The facts a chart can place (their time is known), in order. */
export function timedFacts(facts: readonly InferredFact[] | undefined): InferredFact[] {
  return (facts ?? []).filter((fact) => fact.at !== null);
}

/** Hollow, dashed markers for inferred facts, at `y` on the given axes, with their own tooltip. */
export function inferredSeries(facts: readonly InferredFact[], theme: ChartTheme, now: number, axes: { xAxisIndex?: number; yAxisIndex?: number; y: number }): unknown {
  return {
    id: INFERRED_SERIES_ID,
    name: 'Inferred from the cluster',
    type: 'scatter',
    ...(axes.xAxisIndex !== undefined ? { xAxisIndex: axes.xAxisIndex, yAxisIndex: axes.yAxisIndex } : {}),
    symbol: 'diamond',
    symbolSize: 9,
    itemStyle: { color: 'transparent', borderColor: theme.violet, borderWidth: 1.4, borderType: 'dashed' },
    data: facts.map((fact) => [fact.at, axes.y]),
    tooltip: {
      trigger: 'item',
      formatter: (params: { dataIndex: number }) => {
        const fact = facts[params.dataIndex];
        return fact ? inferredTooltip(fact, now) : '';
      },
    },
    z: 6,
  };
}

/** The earliest known time among the facts (the chart reaches back to show them), or null. */
export function earliestFact(facts: readonly InferredFact[] | undefined): number | null {
  let earliest: number | null = null;
  for (const fact of facts ?? []) if (fact.at !== null && (earliest === null || fact.at < earliest)) earliest = fact.at;
  return earliest;
}

/** How much of [from, to] nobody observed, in words, and whether that is all of it (null: all observed). */
export function coverageNote(gaps: readonly CoverageGap[] | undefined, from: number, to: number, now: number): { whole: boolean; text: string } | null {
  const end = Math.min(to, now);
  const ms = unobservedMs(gaps, from, end);
  const first = gaps?.find((gap) => gap.end > from && gap.start < end);
  if (ms <= 0 || !first) return null;
  return { whole: ms >= end - from, text: `${formatDuration(ms)} not recorded (${gapLabel(first, now)}${(gaps?.length ?? 0) > 1 ? ', and more' : ''})` };
}
