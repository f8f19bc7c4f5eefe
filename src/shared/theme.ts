import { z } from 'zod';

/** Design tokens of a theme; the renderer maps them to CSS custom properties. */
export interface ThemeTokens {
  background: string;
  foreground: string;
  muted: string;
  widgetBackground: string;
  widgetTitle: string;
  accent: string;
  good: string;
  warning: string;
  bad: string;
  fontFamily: string;
}

/** Adding a theme is adding an entry here: the schema and the renderer follow. */
export const THEMES = {
  dark: {
    background: '#0d1117',
    foreground: '#e6edf3',
    muted: '#8b949e',
    widgetBackground: '#161b22',
    widgetTitle: '#c9d1d9',
    accent: '#2f81f7',
    good: '#3fb950',
    warning: '#d29922',
    bad: '#f85149',
    fontFamily: '"DejaVu Sans", "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
  },
  light: {
    background: '#f6f8fa',
    foreground: '#1f2328',
    muted: '#59636e',
    widgetBackground: '#ffffff',
    widgetTitle: '#31373d',
    accent: '#0969da',
    good: '#1a7f37',
    warning: '#9a6700',
    bad: '#cf222e',
    fontFamily: '"DejaVu Sans", "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
  },
} as const satisfies Record<string, ThemeTokens>;

export type ThemeName = keyof typeof THEMES;
const THEME_NAMES = Object.keys(THEMES) as [ThemeName, ...ThemeName[]];

export const themeSchema = z.enum(THEME_NAMES, {
  error: `must be one of ${THEME_NAMES.map((name) => `"${name}"`).join(', ')}`,
});
