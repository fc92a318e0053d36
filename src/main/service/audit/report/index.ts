/**
 * `arbiter report` (docs/formats.md): the audit as ONE self-contained HTML file — inline CSS, plots as
 * inline SVG, no script and no external resource. The Content-Security-Policy forbids scripts
 * and every fetch, so even a string the escaping missed could not run or phone home.
 */
import type { AuditSummary } from '../../../../shared/api'
import { actOrDeferSection, agreementSection, headerSection, methodsSection, reviewersSection, seatsSection } from './sections'
import { REPORT_CSS } from './style'

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'"

/** @param source where the data came from (the database location), shown in the header. */
export function renderReport(a: AuditSummary, source: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="arbiter report">
<title>Arbiter audit report</title>
<style>${REPORT_CSS}</style>
</head>
<body>
${headerSection(a, source)}
${methodsSection(a.methods, a.labeledTasks, a.methodInUse)}
${actOrDeferSection(a.actOrDefer, a.randomLabels, a.methodInUse)}
${seatsSection(a.seats, a.confusionCandidates, a.fitId)}
${reviewersSection(a.reviewers)}
${agreementSection(a.agreement)}
<footer class="note">Computed locally from the database's human labels (import gold is hidden truth and never used as a label). Methods and formulas: docs/engine.md §6–§9.</footer>
</body>
</html>
`
}
