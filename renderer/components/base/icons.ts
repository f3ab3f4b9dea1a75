/**
 * The app's icon set: 16×16 stroke glyphs (Lucide-like geometry), drawn with currentColor so they
 * follow the theme. Kept as path data rather than files so they need no loader and no requests.
 */
export const ICONS = {
  overview:
    'M2.5 2.5h4.5v4.5H2.5zM9 2.5h4.5v4.5H9zM2.5 9h4.5v4.5H2.5zM9 9h4.5v4.5H9z',
  settings:
    'M8 10.2a2.2 2.2 0 1 0 0-4.4 2.2 2.2 0 0 0 0 4.4zM13 9.6l1.2.9-1.3 2.3-1.4-.5a5 5 0 0 1-1.4.8L9.9 14.5H7.3l-.2-1.4a5 5 0 0 1-1.4-.8l-1.4.5L3 10.5l1.2-.9a5 5 0 0 1 0-1.6L3 7.1l1.3-2.3 1.4.5a5 5 0 0 1 1.4-.8l.2-1.4h2.6l.2 1.4a5 5 0 0 1 1.4.8l1.4-.5 1.3 2.3-1.2.9a5 5 0 0 1 0 1.6z',
  search: 'M7 12a5 5 0 1 0 0-10 5 5 0 0 0 0 10zM14 14l-3.5-3.5',
  chevronUpDown: 'M5 6l3-3 3 3M5 10l3 3 3-3',
  check: 'M3 8.5l3 3 7-7',
  alert: 'M8 1.8l6.6 11.7H1.4zM8 6.2v3.3M8 11.6v.1',
  file: 'M4 1.5h5l3 3v10H4zM9 1.5v3h3',
  server: 'M2.5 2.5h11v4.5h-11zM2.5 9h11v4.5h-11zM5 4.75h.01M5 11.25h.01',
  unplugged: 'M3 13l2.5-2.5M10.5 5.5L13 3M6 5l5 5M4.5 6.5l5 5-1.5 1.5a3.5 3.5 0 0 1-5-5zM11.5 9.5l-5-5L8 3a3.5 3.5 0 0 1 5 5z',
  dot: 'M8 9.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3z',
  pods: 'M8 1.8l5.5 3.1v6.2L8 14.2l-5.5-3.1V4.9zM2.5 4.9L8 8l5.5-3.1M8 8v6.2',
  nodes: 'M2.5 2.5h11v4.5h-11zM2.5 9h11v4.5h-11zM5 4.75h.01M5 11.25h.01M8 4.75h3M8 11.25h3',
  cluster:
    'M8 2.5a1.75 1.75 0 1 0 0 3.5 1.75 1.75 0 0 0 0-3.5zM3.25 10a1.75 1.75 0 1 0 0 3.5 1.75 1.75 0 0 0 0-3.5zM12.75 10a1.75 1.75 0 1 0 0 3.5 1.75 1.75 0 0 0 0-3.5zM7.1 5.8l-3 4.3M8.9 5.8l3 4.3M5 11.75h6',
  close: 'M4 4l8 8M12 4l-8 8',
  graph: 'M2 2.5h5v3H2zM9 7h5v3H9zM9 11.5h5v3H9zM4.5 5.5V13H9M4.5 8.5H9',
  snapshot: 'M2.5 5h2.5l1.2-1.8h3.6L11 5h2.5v7.5h-11zM8 11a2.2 2.2 0 1 0 0-4.4 2.2 2.2 0 0 0 0 4.4z',
  controllers: 'M13.5 8a5.5 5.5 0 1 1-1.6-3.9M12.5 1.5v3h-3M8 5.5V8l1.75 1.75',
  timeline: 'M2.5 3.5h6M6 8h7.5M2.5 12.5h3.5M9 12.5h4.5M1.5 1.5v13',
  diff: 'M4 1.5h5l3 3v10H4zM9 1.5v3h3M8 6v4M6 8h4M6 12h4',
} as const;

export type IconName = keyof typeof ICONS;
