#!/usr/bin/env node
// `npm test`: build when out/ is missing or stale, then every vitest project in turn
// (unit, integration, reliability, e2e), printing each suite's duration and one closing count line.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const projects = process.argv.length > 2 ? process.argv.slice(2) : ['unit', 'integration', 'reliability', 'e2e']

const build = spawnSync(process.execPath, [join(root, 'scripts/ensure-build.mjs')], { cwd: root, stdio: 'inherit' })
if (build.status !== 0) process.exit(build.status ?? 1)

const scratch = mkdtempSync(join(tmpdir(), 'arbiter-test-'))
let passed = 0
let failed = 0
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
  } catch {
    failed += 1
  }
  if (run.status !== 0) exitCode = run.status ?? 1
}
rmSync(scratch, { recursive: true, force: true })
console.log(`durations: ${durations.join(', ')}`)
console.log(`tests: ${passed} passed, ${failed} failed`)
process.exit(exitCode)
