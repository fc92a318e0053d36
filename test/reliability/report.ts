/**
 * What every reliability suite prints when it ends (each long suite prints its duration and
 * what it survived), one greppable line: `[reliability] crash-kill: 112.4 s · kills 120 · …`.
 */
export function reportSuite(name: string, startedAt: number, figures: Record<string, string | number>): void {
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1)
  const parts = Object.entries(figures).map(([k, v]) => `${k} ${v}`)
  console.log(`[reliability] ${name}: ${seconds} s${parts.length > 0 ? ` · ${parts.join(' · ')}` : ''}`)
}
