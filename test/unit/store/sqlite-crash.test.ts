/**
 * docs/architecture.md, "Data that must never be lost": a kill at any moment leaves a database that opens,
 * passes its integrity check and holds every acknowledged label; a killed import shows nothing.
 */
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openSqliteStore } from '../../../src/main/store'
import { importTasks, makeTask } from './fixtures'
import { rawDb, useTempDir } from './sqlite-helpers'

const ROOT = join(__dirname, '../../..')

function runUntilAcknowledged(dbLocation: string): Promise<{ labelId: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'crash-child.ts'), dbLocation], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    let err = ''
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const line = out.split('\n').find((l) => l.startsWith('{'))
      if (line !== undefined) {
        child.kill('SIGKILL') // mid-import: the child is writing batches continuously
        child.once('exit', () => resolve(JSON.parse(line) as { labelId: string }))
      }
    })
    child.once('exit', (code, signal) => {
      if (signal !== 'SIGKILL') reject(new Error(`child exited (${code}) before acknowledging: ${err}`))
    })
  })
}

describe('sqlite durability under SIGKILL', () => {
  const tmp = useTempDir()

  it('keeps the acknowledged label, shows nothing of the killed import, and stays consistent', async () => {
    const path = tmp.dbLocation()
    const setup = await openSqliteStore(path)
    await importTasks(setup, [makeTask('published-1')])
    await setup.close()

    const { labelId } = await runUntilAcknowledged(path)

    const rawTasks = (): number => {
      const db = rawDb(path, true)
      try {
        return (db.prepare('SELECT count(*) AS n FROM tasks').get() as { n: number }).n
      } finally {
        db.close()
      }
    }
    expect(rawTasks()).toBeGreaterThan(1) // the killed import did write staged rows

    const store = await openSqliteStore(path)
    try {
      expect(await store.integrityCheck()).toEqual({ ok: true, messages: [] })
      expect((await store.liveLabels('published-1')).map((l) => l.id)).toEqual([labelId])
      expect(await store.counts()).toMatchObject({ tasks: 1, moves: 4, labels: 1 })
      expect((await store.auditTail(10)).map((a) => a.action)).toEqual(['import.publish', 'label.record'])
    } finally {
      await store.close()
    }
    // The killed importer's lock died with it: that first open already swept its rows and its lock file.
    expect(rawTasks()).toBe(1)
    expect(readdirSync(dirname(path)).filter((f) => f.includes('.import-'))).toEqual([])
  }, 60_000)
})
