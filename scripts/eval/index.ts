/**
 * `npm run eval [-- section …]`: runs the named sections (all by default) over the data folder
 * (scripts/data-dir.ts), prints each section's table and duration, and exits 1 when any section's
 * assertions fail or it throws (2 for an unknown section name). CI runs it on every push.
 */
import { SECTIONS } from './sections'

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--list')) {
    for (const s of SECTIONS) console.log(`${s.name.padEnd(14)} ${s.summary ?? ""}`)
    return 0
  }
  const unknown = argv.filter((a) => !SECTIONS.some((s) => s.name === a))
  if (unknown.length > 0) {
    console.error(`unknown section(s): ${unknown.join(', ')}; known: ${SECTIONS.map((s) => s.name).join(', ')}`)
    return 2
  }
  const chosen = argv.length === 0 ? SECTIONS : SECTIONS.filter((s) => argv.includes(s.name))
  const failed: string[] = []
  for (const section of chosen) {
    console.log(`\n## ${section.name}\n`)
    const t0 = performance.now()
    let ok: boolean
    try {
      const res = await section.run()
      for (const line of res.lines) console.log(line)
      ok = res.ok
    } catch (error) {
      // A section that cannot run (missing data, an engine exception) is a failure, never a skip.
      console.log(`section ${section.name} threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
      ok = false
    }
    const seconds = (performance.now() - t0) / 1000
    console.log(`\nsection ${section.name}: ${ok ? 'ok' : 'FAILED'} in ${seconds.toFixed(1)} s`)
    if (!ok) failed.push(section.name)
  }
  if (failed.length > 0) console.log(`\nfailed: ${failed.join(', ')}`)
  return failed.length > 0 ? 1 : 0
}

main(process.argv.slice(2)).then((code) => (process.exitCode = code))
