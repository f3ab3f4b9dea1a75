/**
 * Chart colours from the theme's CSS variables (renderer/styles/theme.css), so charts follow the
 * light/dark switch like the rest of the window. Option builders take a `ChartTheme` argument and
 * stay pure; `useChartTheme` re-reads the variables whenever the resolved theme changes.
 */
import { storeToRefs } from 'pinia';
import { nextTick, shallowRef, watch, type ShallowRef } from 'vue';
import { useSettingsStore } from '../../stores/settings.ts';

export interface ChartTheme {
  dark: boolean;
  font: string;
  text: string;
  muted: string;
  faint: string;
  border: string;
  surface: string;
  raised: string;
  accent: string;
  accentSoft: string;
  success: string;
  warning: string;
  warningSoft: string;
  danger: string;
  dangerSoft: string;
  /** A colour the theme has no token for (up-to-date replicas), picked per theme. */
  violet: string;
}

/** The light palette, also the fallback when a variable is missing (tests, first paint). */
export const LIGHT_CHART_THEME: ChartTheme = {
  dark: false,
  font: 'system-ui, sans-serif',
  text: '#1b2430',
  muted: '#5a6675',
  faint: '#8a95a3',
  border: '#dde3e9',
  surface: '#ffffff',
  raised: '#ffffff',
  accent: '#0e6a8a',
  accentSoft: 'rgba(14, 106, 138, 0.1)',
  success: '#1a7f37',
  warning: '#9a6700',
  warningSoft: 'rgba(191, 135, 0, 0.12)',
  danger: '#c9302c',
  dangerSoft: 'rgba(201, 48, 44, 0.08)',
  violet: '#7048e8',
};

const VARIABLES: Record<Exclude<keyof ChartTheme, 'dark' | 'violet'>, string> = {
  font: '--kd-font',
  text: '--kd-text',
  muted: '--kd-text-muted',
  faint: '--kd-text-faint',
  border: '--kd-border',
  surface: '--kd-surface',
  raised: '--kd-surface-raised',
  accent: '--kd-accent',
  accentSoft: '--kd-accent-soft',
  success: '--kd-success',
  warning: '--kd-warning',
  warningSoft: '--kd-warning-soft',
  danger: '--kd-danger',
  dangerSoft: '--kd-danger-soft',
};

/** The theme as the document's CSS variables define it now. */
export function readChartTheme(root: HTMLElement = document.documentElement, dark = root.dataset['theme'] === 'dark'): ChartTheme {
  const style = getComputedStyle(root);
  const theme: ChartTheme = { ...LIGHT_CHART_THEME, dark, violet: dark ? '#a48bff' : '#7048e8' };
  for (const [key, variable] of Object.entries(VARIABLES) as Array<[keyof typeof VARIABLES, string]>) {
    const value = style.getPropertyValue(variable).trim();
    if (value) theme[key] = value;
  }
  return theme;
}

/** The chart theme, re-read after each theme switch has reached the document. */
export function useChartTheme(): ShallowRef<ChartTheme> {
  const { resolvedTheme } = storeToRefs(useSettingsStore());
  const theme = shallowRef(readChartTheme(document.documentElement, resolvedTheme.value === 'dark'));
  watch(resolvedTheme, (value) => {
    // The settings store writes data-theme in its own effect; read once that has run.
    void nextTick(() => {
      theme.value = readChartTheme(document.documentElement, value === 'dark');
    });
  });
  return theme;
}
