import { METHODS, type Method } from '../../engine'
import { cliActor, dbLocationOf, LazyStore, requireDatabase } from '../../service/cli-support'
import { readEngineSettings } from '../../service/engine-settings'
import { runJob } from '../../service/jobs/runner'
import { fitDetail } from '../../service/fit/views'
import { defaultDbLocation } from '../../paths'
import { methodFrom, parseFlags } from '../args'
import { boundFlag } from '../bound-flag'
import type { CliIo, Command } from '../command'
import { BOUND_KINDS, DEFAULT_ENGINE_SETTINGS, type BudgetSetting, type FitSeat } from '../../../shared/api'
import { boundLabel, budgetLabel, budgetMeaning } from '../../../shared/budget-text'

const usage = `Usage: arbiter fit [--db PATH] [--method M] [--bound B] [--json]

Recalibrates: fits seat reliabilities with CV-selected hyperparameters (docs/engine.md §7) on the labels the
label policy allows (all by default), builds the act-or-defer certificate from the random labels
(§8), and decides every task without a human label under the budget of the settings (default
β = 0.20: in expectation over the calibration draw, and provided the random labels are a uniform blind
sample, the share of ALL tasks acted on wrongly stays ≤ β; every acted answer's bound is
≥ 1 − α = 1 − (β − δ − ε_act)). Stored as a new fit, with the bound it ran with; earlier fits are kept.
Prints the chosen hyperparameters, each seat's reliability and weight, the budget and bound, and the
decisions with the acted share (acted / decided tasks).

  --db PATH     the database (default: ${defaultDbLocation()})
  --method M    ${METHODS.join(' | ')} (default: the settings', ${DEFAULT_ENGINE_SETTINGS.method})
  --bound B     ${BOUND_KINDS.join(' | ')}: the certificate's concentration bound (default: the settings', ${DEFAULT_ENGINE_SETTINGS.bound})
  --json        one JSON object: fit, method, bound, budget, resolved, actedShare, hyperparameters, seats (reliability, weight, drift), metrics

Exit 0 on success, 2 on bad input (no database, a method the data refuses, an unknown bound), 1 on other failure.`

export const fitCommand: Command = {
  name: 'fit',
  summary: 'recalibrate on the labels, rebuild the certificate, decide every unlabeled task',
  usage,
  async run(argv, io) {
    const values = parseFlags(argv, { db: { type: 'string' }, method: { type: 'string' }, bound: { type: 'string' }, json: { type: 'boolean' } })
    if (values.help === true) {
      io.out(usage)
      return 0
    }
    const dbLocation = dbLocationOf(values.db)
    const override = values.method === undefined ? undefined : methodFrom<Method>(values.method, METHODS, 'per-agent')
    const bound = boundFlag(values.bound)
    requireDatabase(dbLocation)
    const db = new LazyStore(dbLocation)
    try {
      const store = await db.get()
      const settings = await readEngineSettings(store)
      // In a job's worker thread, as the console runs it: the same heap limits, the same writer thread.
      const fit = await runJob({ kind: 'fit', dbLocation: db.dbLocation, nativeBinding: null, settings: { ...settings, method: override ?? settings.method, bound: bound ?? settings.bound }, redecide: null, actor: await cliActor(store) }, () => {})
      printFit(io, fitDetail(fit, true), values.json === true)
      return 0
    } finally {
      await db.close()
    }
  }
}

export function printFit(io: CliIo, f: ReturnType<typeof fitDetail>, json: boolean): void {
  const m = f.metrics ?? {}
  // The acted share the fit led to: acted / decided tasks (null before its decisions are saved).
  const actedShare = typeof m.act === 'number' ? m.act : null
  const resolved = (f.certificate?.resolved ?? null) as { beta?: number | null } | null
  if (json) {
    const seats = f.seats.map((s) => ({ seat: s.seat, model: s.model, reliability: s.reliability, weight: s.weight, adversarial: s.adversarial, drift: s.drift === null ? null : driftLine(s.seat, s.drift) }))
    io.out(JSON.stringify({ fit: f.id, parent: f.parentFitId, method: f.method, bound: f.bound, hyperparameters: f.hyperparameters, seats, metrics: f.metrics, budget: f.budget, resolved, actedShare }))
    return
  }
  io.out(`fit ${f.id} (${f.method}; ${Object.entries(f.hyperparameters).map(([k, v]) => `${k} = ${v}`).join(', ') || 'no hyperparameters'})`)
  for (const s of f.seats) {
    const r = s.reliability === null ? '—' : s.reliability.toFixed(3)
    const w = s.weight === null ? '—' : s.weight.toFixed(3)
    io.out(`  ${s.seat.padEnd(16)} reliability ${r}  weight ${w}${s.adversarial ? '  adversarial' : ''}${s.drift?.flagged ? '  DRIFT' : s.drift?.noTimeOrder === true ? '  drift: no time order' : ''}`)
  }
  const settings = (f.certificate?.settings ?? {}) as { delta?: number; epsAct?: number }
  const beta = typeof resolved?.beta === 'number' ? resolved.beta : null
  io.out(`budget ${f.budget === null ? 'unknown' : budgetLabel(f.budget as BudgetSetting)}${f.budget?.kind !== 'absolute' && beta !== null ? ` → β = ${beta.toFixed(3)}` : ''}, ${boundLabel(f.bound)}`)
  if (typeof settings.delta === 'number' && typeof settings.epsAct === 'number') io.out(`  ${budgetMeaning(beta, settings.delta, settings.epsAct)}`)
  const share = actedShare === null ? '' : ` (acted share ${(100 * actedShare).toFixed(1)}%)`
  io.out(`decided ${String(m.decided)} tasks: ${String(m.acted)} acted, ${String(m.deferred)} deferred, ${String(m.spotChecked)} spot-checked${share}` + (m.reason === null || m.reason === undefined ? '' : ` (all deferred: ${String(m.reason)})`))
}

/** `fit --json`'s drift line: `drift`'s (docs/formats.md), with `noTimeOrder: true` only when §9 withholds the verdict. */
function driftLine(seat: string, d: NonNullable<FitSeat['drift']>) {
  const { noTimeOrder, ...figures } = d
  return { seat, ...figures, ...(noTimeOrder === true ? { noTimeOrder: true } : {}) }
}
