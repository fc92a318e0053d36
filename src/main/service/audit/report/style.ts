/** The report's only stylesheet, inlined: light by default, dark when the reader's system asks. */
export const REPORT_CSS = `
:root { --fg: #1b1f24; --muted: #59636e; --bg: #ffffff; --line: #d0d7de; --panel: #f6f8fa;
  --pos: #2f6fce; --neg: #c9372c; --gap: rgba(201, 55, 44, 0.35); --accent: #1a7f37; }
@media (prefers-color-scheme: dark) {
  :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --line: #3d444d; --panel: #151b23;
    --pos: #4493f8; --neg: #f85149; --gap: rgba(248, 81, 73, 0.4); --accent: #3fb950; }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1100px; padding: 24px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif;
  color: var(--fg); background: var(--bg); }
h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 18px; margin: 32px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 14px; margin: 16px 0 6px; }
p, li { color: var(--fg); } .muted { color: var(--muted); }
table { border-collapse: collapse; margin: 8px 0 12px; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--line); padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: var(--panel); font-weight: 600; } td.n, th.n { text-align: right; }
tr.ref td { font-style: italic; } .flag { color: var(--neg); font-weight: 600; } .note { color: var(--muted); font-size: 12px; }
.plots { display: flex; flex-wrap: wrap; gap: 12px; }
figure { display: inline-flex; flex-direction: column; margin: 0; padding: 8px; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); }
/* width 0 + min-width 100 %: the caption wraps to its plot's width instead of widening the figure. */
figcaption { width: 0; min-width: 100%; font-size: 12px; color: var(--muted); overflow-wrap: anywhere; }
svg text { fill: var(--fg); font: 10px system-ui, sans-serif; } svg .axis { font-size: 11px; fill: var(--muted); }
svg .frame { fill: none; stroke: var(--line); } svg .grid { stroke: var(--line); stroke-dasharray: 2 3; }
svg .bar { fill: var(--pos); } svg .gap { fill: var(--gap); } svg .conf { stroke: var(--fg); stroke-width: 2; } svg .diag { stroke: var(--muted); stroke-dasharray: 4 3; }
svg .pos { fill: var(--pos); } svg .neg { fill: var(--neg); } svg .axisline { stroke: var(--muted); }
svg polyline { fill: none; stroke-width: 2; } svg line.act, svg polyline.act { stroke: var(--pos); stroke-width: 2; }
svg circle.act { fill: var(--pos); } svg circle.current { fill: none; stroke: var(--accent); stroke-width: 2.5; }
svg .accact { stroke: var(--accent); stroke-dasharray: 1 3; stroke-width: 2; } svg .wa { stroke: var(--neg); stroke-dasharray: 5 3; stroke-width: 2; }
svg .budget { stroke: var(--muted); stroke-width: 1; }
svg .heat { fill: var(--pos); } svg text.cell { font-size: 10px; } svg text.cell.on { fill: #ffffff; }
`
