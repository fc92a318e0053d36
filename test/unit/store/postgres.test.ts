/**
 * The backend-neutral store suite on PostgreSQL: each fresh store is a fresh database of a
 * throwaway cluster (test/helpers/postgres.ts), opened through `openStore` like a user's URL.
 */
import { openStore } from '../../../src/main/store'
import { POSTGRES, usePostgres } from '../../helpers/postgres'
import { describeWith } from '../../helpers/prerequisites'
import { defineStoreSuite } from './store-suite'

const cluster = usePostgres()

describeWith(POSTGRES, 'on PostgreSQL', () =>
  defineStoreSuite('postgres', async (opts = {}) => {
    const store = await openStore(await cluster().createDatabase(), opts)
    return {
      store,
      cleanup: async () => {
        await store.close()
      }
    }
  })
)
