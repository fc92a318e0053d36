import type { BudgetSetting } from '../../../shared/api'
import { cliActor, dbLocationOf, LazyStore, requireDatabase } from '../../service/cli-support'
import { readEngineSettings } from '../../service/engine-settings'
import { runJob } from '../../service/jobs/runner'
import { fitDetail } from '../../service/fit/views'
import { defaultDbLocation } from '../../paths'
import { numberFlag, parseFlags } from '../args'
import { UsageError, type Command } from '../command'
import { boundFlag } from '../bound-flag'
import { printFit } from './fit'

const usage = `Usage: arbiter decide [--db PATH] [--beta B | --budget-lambda L|auto] [--bound B] [--json]

Decides every task without a human label under the current fit (its labels and hyperparameters),
with another budget or bound: routes each to act or defer and flags spot-checks (docs/engine.md §8, §10).
Stored as a new fit derived from the current one. Without a budget flag, the settings' budget
(default β = 0.20); without --bound, the bound the current fit ran with.

  --db PATH           the database (default: ${defaultDbLocation()})
  --beta B            absolute wrong-action budget β in [0, 1]
  --budget-lambda L   relative budget β = L·ê_T, L ≥ 0; or auto (AoD B.5)
  --bound B           binomial | hoeffding: re-decide under this concentration bound (docs/engine.md §8.7)
  --json              the new fit as JSON (as fit --json)

Exit 0 on success, 2 on bad input (no database, no fit yet, two budget flags, an unknown bound), 1 on other failure.`

function budgetFrom(beta: string | undefined, lambda: string | undefined): BudgetSetting | null {
  if (beta !== undefined && lambda !== undefined) throw new UsageError('give one budget flag: --beta or --budget-lambda')
  if (beta !== undefined) {
    const b = numberFlag('beta', beta) as number
    if (!(b >= 0 && b <= 1)) throw new UsageError(`--beta must be in [0, 1], got ${beta}`)
    return { kind: 'absolute', beta: b }
  }
  if (lambda === undefined) return null
  if (lambda === 'auto') return { kind: 'auto' }
  const l = numberFlag('budget-lambda', lambda) as number
  if (!(l >= 0 && l <= 100)) throw new UsageError(`--budget-lambda must be a number in [0, 100] or auto, got ${lambda}`)
  return { kind: 'relative', lambda: l }
}

export const decideCommand: Command = {
  name: 'decide',
  summary: 'decide every unlabeled task under the current fit (act / defer / spot-check)',
  usage,
  async run(argv, io) {
    const values = parseFlags(argv, { db: { type: 'string' }, beta: { type: 'string' }, 'budget-lambda': { type: 'string' }, bound: { type: 'string' }, json: { type: 'boolean' } })
    if (values.help === true) {
      io.out(usage)
      return 0
    }
    const dbLocation = dbLocationOf(values.db)
    const given = budgetFrom(values.beta, values['budget-lambda'])
    const bound = boundFlag(values.bound)
    requireDatabase(dbLocation)
    const db = new LazyStore(dbLocation)
    try {
      const store = await db.get()
      const current = await store.currentFit()
      if (current === null) throw new UsageError('no fit to decide under yet: run `arbiter fit` first')
      const settings = await readEngineSettings(store)
      // In a job's worker thread, as the console runs it: the same heap limits, the same writer thread.
      const fit = await runJob({ kind: 'fit', dbLocation: db.dbLocation, nativeBinding: null, settings, redecide: bound === undefined ? { fitId: current.id, budget: given ?? settings.budget } : { fitId: current.id, budget: given ?? settings.budget, bound }, actor: await cliActor(store) }, () => {})
      printFit(io, fitDetail(fit, true), values.json === true)
      return 0
    } finally {
      await db.close()
    }
  }
}
