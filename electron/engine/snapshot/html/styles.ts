/** The report's stylesheet, inline in the file: readable on screen, clean when printed. */
export const REPORT_CSS = `
:root { color-scheme: light; --fg: #1b2430; --muted: #5b6878; --line: #e2e7ee; --bg: #ffffff; --soft: #f5f7fa;
  --accent: #0e6a8a; --warn: #a15c00; --warn-bg: #fff4e0; --danger: #b3261e; --danger-bg: #fdecea; --ok: #1e7b45; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--soft); color: var(--fg); font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
main { max-width: 960px; margin: 0 auto; padding: 32px 24px 64px; }
header.report { border-bottom: 3px solid var(--accent); padding-bottom: 16px; margin-bottom: 24px; }
header.report h1 { margin: 0 0 4px; font-size: 24px; }
header.report .sub { color: var(--muted); }
header.report dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 12px 0 0; font-size: 13px; }
header.report dt { color: var(--muted); }
header.report dd { margin: 0; word-break: break-all; }
section { background: var(--bg); border: 1px solid var(--line); border-radius: 8px; padding: 16px 20px; margin-bottom: 20px; break-inside: avoid-page; }
section h2 { margin: 0 0 12px; font-size: 17px; }
section h3 { margin: 16px 0 4px; font-size: 14px; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 12px; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; }
.card .value { font-size: 24px; font-weight: 600; }
.card .label { color: var(--muted); font-size: 12px; }
.card.bad .value { color: var(--danger); }
table { width: 100%; border-collapse: collapse; font-size: 13px; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { color: var(--muted); font-weight: 600; font-size: 12px; background: var(--soft); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.pill { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 12px; font-weight: 600; }
.pill.warning { background: var(--warn-bg); color: var(--warn); }
.pill.danger { background: var(--danger-bg); color: var(--danger); }
.pill.ok { background: #e6f4ea; color: var(--ok); }
.pill.info { background: #e3f1f6; color: var(--accent); }
.pill.neutral { background: var(--soft); color: var(--muted); }
.muted { color: var(--muted); }
.reasons { margin: 0; padding-left: 16px; }
.chart { margin: 4px 0 12px; overflow-x: auto; }
.chart svg { max-width: 100%; height: auto; }
.kinds { display: flex; flex-wrap: wrap; gap: 6px 16px; font-size: 13px; margin-top: 12px; }
.note { color: var(--muted); font-size: 13px; margin: 4px 0 0; }
footer { color: var(--muted); font-size: 12px; text-align: center; margin-top: 32px; }
@media print { body { background: #fff; } section { border: none; padding: 0; } main { padding: 0; } }
`;
