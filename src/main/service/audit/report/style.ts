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
svg .diag, svg .budget { stroke: var(--muted); stroke-dasharray: 4 3; stroke-width: 1.5; fill: none; } svg .axisline { stroke: var(--muted); }
svg .pos { fill: var(--pos); } svg .neg { fill: var(--neg); }
svg polyline { fill: none; stroke-width: 1.5; } svg circle.dot { fill: var(--bg); stroke-width: 1.5; }
svg .accuracy, svg .act, svg .reliability { stroke: var(--pos); } svg .wa, svg .reliability.drifting { stroke: var(--neg); }
svg .current { stroke: var(--fg); stroke-width: 1.5; } svg .recent { stroke: var(--muted); stroke-dasharray: 4 3; }
svg text.count { font-size: 9px; fill: var(--muted); } svg .legend line { stroke-width: 2; }
svg .heat.right { fill: var(--accent); } svg .heat.wrong { fill: var(--neg); } svg text.cell { font-size: 10px; } svg text.cell.on { fill: #ffffff; }
.tag { display: inline-block; font-size: 11px; border-radius: 10px; padding: 0 7px; margin-left: 6px; border: 1px solid var(--accent); color: var(--accent); font-style: normal; }
tr.in-use td { font-weight: 600; background: var(--panel); }
.compare { display: flex; flex-wrap: wrap; gap: 12px; } .figures { flex: 1 1 380px; border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; }
.figures h3 { margin-top: 4px; } .figures td:first-child { white-space: nowrap; } .no-time-order { max-width: 300px; color: var(--muted); }
`
