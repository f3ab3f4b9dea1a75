/**
 * A read-only window onto the charts on screen for the end-to-end tests, which must check that
 * what a chart draws is exactly what the engine answered: `window.__kubedriftCharts[name]()`
 * returns each series' name and data as the chart holds them. Nothing else is exposed.
 */
export interface ChartSeriesDump {
  id: string;
  name: string;
  data: unknown[];
}

declare global {
  interface Window {
    __kubedriftCharts?: Record<string, () => ChartSeriesDump[]>;
  }
}

/** Registers a chart under `name`; returns its removal (only if it is still the registered one). */
export function registerChart(name: string, dump: () => ChartSeriesDump[]): () => void {
  const charts = (window.__kubedriftCharts ??= {});
  charts[name] = dump;
  return () => {
    if (window.__kubedriftCharts?.[name] === dump) delete window.__kubedriftCharts[name];
  };
}
