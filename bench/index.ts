/**
 * `npm run bench [-- suite …]`: runs the named suites (all by default), prints one table of
 * figure, value, target, reference and ratio, and writes bench/results.json.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { targetRatio, type Figure } from './figure'
import { SUITES } from './suites'

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--list')) {
    for (const s of SUITES) console.log(`${s.name.padEnd(10)} ${s.summary}`)
    return 0
  }
  const unknown = argv.filter((a) => !SUITES.some((s) => s.name === a))
  if (unknown.length > 0) {
    console.error(`unknown suite(s): ${unknown.join(', ')}; known: ${SUITES.map((s) => s.name).join(', ')}`)
    return 2
  }
  const chosen = argv.length === 0 ? SUITES : SUITES.filter((s) => argv.includes(s.name))
  const figures: Figure[] = []
  for (const suite of chosen) {
    const t0 = performance.now()
    const got = await suite.run()
    figures.push(...got)
    console.error(`suite ${suite.name}: ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  }
  printTable(figures)
  writeFileSync(join(__dirname, 'results.json'), `${JSON.stringify({ at: new Date().toISOString(), figures }, null, 2)}\n`)
  return 0
}

function fmt(x: number): string {
  return Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(3)
}

function printTable(figures: Figure[]): void {
  const rows = figures.map((f) => {
    const ratio = targetRatio(f)
    return [
      `${f.suite}: ${f.name}`,
      `${fmt(f.value)} ${f.unit}`,
      f.target === null ? '—' : `${f.better === 'lower' ? '≤' : '≥'} ${fmt(f.target)} ${f.unit}`,
      f.reference ? `${f.reference.name} ${fmt(f.reference.value)} ${f.unit}` : (f.note ?? '—'),
      ratio === null ? '—' : `${ratio.toFixed(2)}${ratio <= 1 ? '' : ' (misses)'}`
    ]
  })
  const head = ['figure', 'value', 'target', 'reference', 'ratio']
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)))
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`
  console.log(line(head))
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
  for (const r of rows) console.log(line(r))
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (e: unknown) => {
    // A missing prerequisite (a suite marks it `setup`) is one line saying what to install; a bug keeps its stack.
    console.error((e as { setup?: unknown }).setup === true ? (e as Error).message : e)
    process.exitCode = 1
  }
)
