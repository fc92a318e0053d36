/**
 * The service (shared/service-suite.ts) on both backends: a SQLite file in a temp folder, and a
 * fresh database of a throwaway PostgreSQL cluster — one suite, two backends. What only a file or
 * only a server has (moving a demo aside, a demo written to a server database) is tested here.
 */
import { existsSync } from 'node:fs'
import { expect, it } from 'vitest'
import { dispatch } from '../../src/main/host/dispatch'
import { createService } from '../../src/main/service'
import { createDemoDatabase, isFirstLaunch } from '../../src/main/service/demo'
import { openStore } from '../../src/main/store'
import { postgresDatabase, sqliteFile } from '../helpers/db-location'
import { POSTGRES, usePostgres } from '../helpers/postgres'
import { describeWith } from '../helpers/prerequisites'
import { exampleTraces, seedTraces } from '../helpers/seed'
import { defineServiceSuite } from './shared/service-suite'

const cluster = usePostgres()

defineServiceSuite('a SQLite file', sqliteFile('arbiter-svc-'))
describeWith(POSTGRES, 'on PostgreSQL', () => defineServiceSuite('PostgreSQL', postgresDatabase(cluster)))

describeWith(POSTGRES, 'on a PostgreSQL database, what only makes sense for a file', () => {
  it('is never a first launch, writes the demo only into an empty database, and refuses to start empty', async () => {
    const url = await cluster().createDatabase()
    expect(isFirstLaunch(url, true)).toBe(false)
    const report = await createDemoDatabase(url)
    expect(report.tasks).toBeGreaterThan(0)
    await expect(createDemoDatabase(url)).rejects.toMatchObject({ code: 'bad_input', message: expect.stringContaining('not empty') })
    const service = await createService({ store: await openStore(url), dbLocation: url, nativeBinding: null, shell: 'web' })
    try {
      const ctx = service.context()
      expect(await dispatch(service.handlers, 'demo.status', {}, ctx)).toMatchObject({ ok: true, value: { demo: true } })
      const r = await dispatch(service.handlers, 'demo.startEmpty', {}, ctx)
      expect(r).toMatchObject({ ok: false, error: { code: 'bad_input', message: expect.stringContaining('PostgreSQL') } })
      // Nothing moved, nothing emptied: the demo is still there.
      expect(await dispatch(service.handlers, 'app.counts', {}, ctx)).toMatchObject({ ok: true, value: { tasks: report.tasks } })
      expect(existsSync(url)).toBe(false)
    } finally {
      await service.close()
    }
  })

  it('refuses a demo into a database that already holds tasks', async () => {
    const url = await cluster().createDatabase()
    const store = await openStore(url)
    await seedTraces(store, exampleTraces())
    await store.close()
    await expect(createDemoDatabase(url)).rejects.toMatchObject({ code: 'bad_input' })
    const again = await openStore(url, { readonly: true })
    expect((await again.counts()).tasks).toBe(3)
    await again.close()
  })
})
