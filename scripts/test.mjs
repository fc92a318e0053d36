#!/usr/bin/env node
// `npm test`: build when out/ is missing or stale, then every vitest project in turn
// (unit, integration, reliability, e2e), printing each suite's duration, why tests were skipped
// (a missing dataset, Chromium or PostgreSQL: test/helpers/prerequisites.ts puts the reason in the
// suite's title) and one closing count line.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const projects = process.argv.length > 2 ? process.argv.slice(2) : ['unit', 'integration', 'reliability', 'e2e']

const build = spawnSync(process.execPath, [join(root, 'scripts/ensure-build.mjs')], { cwd: root, stdio: 'inherit' })
if (build.status !== 0) process.exit(build.status ?? 1)

const scratch = mkdtempSync(join(tmpdir(), 'arbiter-test-'))
let passed = 0
let failed = 0
let skipped = 0
/** reason → { tests, suites: the distinct skipped suites (file and title) it covers } */
const reasons = new Map()
const MARK = ' — skipped: '

/** Files that failed outside their tests (a hook or the import threw): a failure each, named. */
const fileFailures = []

/**
 * Tallies one project's skipped tests by the reason their suite's title gives. A file that failed
 * outside its tests counts as one failure, and its tests, which never ran, not as skipped.
 */
function tallyOutcomes(json) {
  for (const file of json.testResults ?? []) {
    const tests = file.assertionResults ?? []
    if (file.status === 'failed' && !tests.some((t) => t.status === 'failed')) {
      failed++
      fileFailures.push(`${relative(root, file.name)}: ${(file.message ?? '').split('\n')[0]}`)
      continue
    }
    for (const t of tests) {
      if (t.status !== 'skipped' && t.status !== 'pending' && t.status !== 'todo') continue
      skipped++
      const title = [...t.ancestorTitles, t.title].find((x) => x.includes(MARK))
      const reason = title === undefined ? `no reason given (${relative(root, file.name)})` : title.slice(title.indexOf(MARK) + MARK.length)
      const entry = reasons.get(reason) ?? { tests: 0, suites: new Set() }
      entry.tests++
      entry.suites.add(`${file.name}\u0000${title ?? ''}`)
      reasons.set(reason, entry)
    }
  }
}

let exitCode = 0
const durations = []
for (const project of projects) {
  const report = join(scratch, `${project}.json`)
  const started = Date.now()
  const run = spawnSync(
    join(root, 'node_modules/.bin/vitest'),
    ['run', '--project', project, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    { cwd: root, stdio: 'inherit' }
  )
  const seconds = (Date.now() - started) / 1000
  durations.push(`${project} ${seconds.toFixed(1)} s`)
  console.log(`suite ${project}: ${seconds.toFixed(1)} s`)
  try {
    const json = JSON.parse(readFileSync(report, 'utf8'))
    passed += json.numPassedTests
    failed += json.numFailedTests
    tallyOutcomes(json)
  } catch {
    failed += 1
  }
  if (run.status !== 0) exitCode = run.status ?? 1
}
rmSync(scratch, { recursive: true, force: true })
console.log(`durations: ${durations.join(', ')}`)
for (const f of fileFailures) console.log(`failed outside its tests: ${f}`)
let skippedSuites = 0
for (const [reason, { tests, suites }] of reasons) {
  skippedSuites += suites.size
  console.log(`skipped: ${reason}: ${tests} test${tests === 1 ? '' : 's'} in ${suites.size} suite${suites.size === 1 ? '' : 's'}`)
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped (${skippedSuites} suite${skippedSuites === 1 ? '' : 's'})`)
process.exit(exitCode)
