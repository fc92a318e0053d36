import { useEffect, useState, type FormEvent } from 'react'
import { BOUND_KINDS, LABEL_POLICIES, METHOD_NAMES, STATE_SOURCES, type BudgetSetting, type EngineSettings } from '@shared/api'
import { budgetMeaning } from '@shared/budget-text'
import { useApi } from '../api/context'
import { useUpdateEngineSettings } from '../api/loop-queries'

type BudgetKind = BudgetSetting['kind']

/** Method, budget (and what it means), bound, δ, ε_act, state source, spot-check rate and label policy; saving refits. */
export function EngineSettingsForm({ settings }: { settings: EngineSettings }) {
  const api = useApi()
  const update = useUpdateEngineSettings()
  const [draft, setDraft] = useState(settings)
  const [refit, setRefit] = useState<'idle' | 'running' | 'done' | string>('idle')
  useEffect(() => setDraft(settings), [settings])
  const set = <K extends keyof EngineSettings>(k: K, v: EngineSettings[K]) => setDraft((d) => ({ ...d, [k]: v }))

  const budgetKind = draft.budget.kind
  const budgetValue = draft.budget.kind === 'absolute' ? draft.budget.beta : draft.budget.kind === 'relative' ? draft.budget.lambda : null
  const setBudget = (kind: BudgetKind, value: number | null) =>
    set('budget', kind === 'auto' ? { kind } : kind === 'absolute' ? { kind, beta: value ?? 0.2 } : { kind, lambda: value ?? 1 })

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    try {
      await update.mutateAsync(diff(settings, draft))
      setRefit('running')
      await api['fits.run']({})
      setRefit('done')
    } catch (err) {
      setRefit(err instanceof Error ? err.message : String(err))
    }
  }

  return (
    <form className="panel" onSubmit={submit} aria-labelledby="engine-heading">
      <h2 id="engine-heading">Engine</h2>
      <div className="form-grid">
        <label className="field">
          <span>Method</span>
          <select data-testid="settings-method" value={draft.method} onChange={(e) => set('method', e.target.value as EngineSettings['method'])}>
            {METHOD_NAMES.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <div className="field">
          <span>Wrong-action budget</span>
          <span className="row">
            <select value={budgetKind} onChange={(e) => setBudget(e.target.value as BudgetKind, budgetValue)} aria-label="Budget kind" data-testid="settings-budget-kind">
              <option value="auto">λ = auto (chosen on the calibration set)</option>
              <option value="relative">relative: β = λ · error</option>
              <option value="absolute">absolute β</option>
            </select>
            <input
              data-testid="settings-budget"
              type="number"
              step={budgetKind === 'absolute' ? 0.01 : 0.25}
              min={0}
              max={budgetKind === 'absolute' ? 1 : 100}
              disabled={budgetKind === 'auto'}
              value={budgetValue ?? ''}
              placeholder="auto"
              onChange={(e) => setBudget(budgetKind, Number(e.target.value))}
              aria-label={budgetKind === 'absolute' ? 'β' : 'λ'}
            />
          </span>
        </div>
        <label className="field">
          <span>Bound on each neighbourhood’s accuracy</span>
          <select data-testid="settings-bound" value={draft.bound} onChange={(e) => set('bound', e.target.value as EngineSettings['bound'])}>
            {BOUND_KINDS.map((b) => (
              <option key={b} value={b}>
                {b === 'binomial' ? 'binomial (Clopper–Pearson; default)' : 'Hoeffding (AoD as published)'}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>δ (calibration-failure budget)</span>
          <input type="number" step={0.005} min={0.001} max={0.49} value={draft.delta} onChange={(e) => set('delta', Number(e.target.value))} />
        </label>
        <label className="field">
          <span>ε_act (representation gap)</span>
          <input type="number" step={0.005} min={0} max={0.49} value={draft.epsAct} onChange={(e) => set('epsAct', Number(e.target.value))} />
        </label>
        <label className="field">
          <span>State the certificate conditions on</span>
          <select value={draft.state} onChange={(e) => set('state', e.target.value as EngineSettings['state'])}>
            {STATE_SOURCES.map((s) => (
              <option key={s} value={s}>
                {s === 'social' ? 'social: share of seats behind each answer' : 'posterior: the aggregator’s posterior'}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Spot-check rate ρ (blind audits of acted tasks)</span>
          <input data-testid="settings-spot-rate" type="number" step={0.01} min={0} max={1} value={draft.spotRate} onChange={(e) => set('spotRate', Number(e.target.value))} />
        </label>
        <label className="field">
          <span>Labels that fit reliabilities</span>
          <select value={draft.labelPolicy} onChange={(e) => set('labelPolicy', e.target.value as EngineSettings['labelPolicy'])}>
            {LABEL_POLICIES.map((p) => (
              <option key={p} value={p}>
                {p === 'all' ? 'all labels (review queue feeds recalibration)' : 'random (blind) labels only'}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p className="small" data-testid="settings-budget-meaning">
        What β means: {budgetMeaning(draft.budget.kind === 'absolute' ? draft.budget.beta : null, draft.delta, draft.epsAct)}
        {draft.budget.kind !== 'absolute' && ' (β itself is worked out at each fit from the calibration set; the fit reports it.)'}
      </p>
      <p className="muted small">The certificate always uses blind (random) labels only: its guarantee needs exchangeable calibration data.</p>
      <div className="actions">
        <button type="submit" disabled={update.isPending || refit === 'running'}>
          Save and refit
        </button>
        {refit === 'running' && (
          <span className="progress inline-progress" data-testid="progress" role="progressbar">
            <span>refitting…</span>
          </span>
        )}
        {refit === 'done' && <span role="status">Refit done.</span>}
        {refit !== 'idle' && refit !== 'running' && refit !== 'done' && (
          <span role="alert" className="error-text">
            {refit}
          </span>
        )}
      </div>
    </form>
  )
}

function diff(a: EngineSettings, b: EngineSettings): Partial<EngineSettings> {
  const out: Partial<EngineSettings> = {}
  for (const k of Object.keys(b) as (keyof EngineSettings)[]) {
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) (out as Record<string, unknown>)[k] = b[k]
  }
  return out
}
