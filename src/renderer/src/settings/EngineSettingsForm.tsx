import { useEffect, useState, type FormEvent } from 'react'
import { BOUND_KINDS, LABEL_POLICIES, METHOD_NAMES, STATE_SOURCES, type BudgetSetting, type EngineSettings, type RefitChange } from '@shared/api'
import { budgetMeaning } from '@shared/budget-text'
import { budgetSchema, engineSettingsSchema } from '@shared/contract/settings'
import { useApi } from '../api/context'
import { useEngineRights } from '../api/engine-rights'
import { useUpdateEngineSettings } from '../api/queries'
import { RefitSummary } from '../components/RefitSummary'
import { NumberField } from './NumberField'
import { WhatIfPanel } from './WhatIfPanel'
import { readNumberText, type NumberText } from './number-text'

type BudgetKind = BudgetSetting['kind']
type NumberKey = 'beta' | 'lambda' | 'delta' | 'epsAct' | 'spotRate'
type Texts = Record<NumberKey, string>

/** Each numeric field's name (as its label and messages say it) and the schema that decides it. */
const NUMBER_FIELDS = {
  beta: { name: 'β', schema: budgetSchema.options[2].shape.beta },
  lambda: { name: 'λ', schema: budgetSchema.options[1].shape.lambda },
  delta: { name: 'δ', schema: engineSettingsSchema.shape.delta },
  epsAct: { name: 'ε_act', schema: engineSettingsSchema.shape.epsAct },
  spotRate: { name: 'Spot-check rate ρ', schema: engineSettingsSchema.shape.spotRate }
} as const

/** The fields' texts as the stored settings read (the budget field not in use keeps its default). */
function textsOf(s: EngineSettings): Texts {
  return {
    beta: String(s.budget.kind === 'absolute' ? s.budget.beta : 0.2),
    lambda: String(s.budget.kind === 'relative' ? s.budget.lambda : 1),
    delta: String(s.delta),
    epsAct: String(s.epsAct),
    spotRate: String(s.spotRate)
  }
}

/**
 * Method, budget (and what it means), bound, δ, ε_act, state source, spot-check rate and label policy; saving refits.
 * A login without the engine's rights (api/engine-rights.ts) may try values in the what-if, not save them.
 * Numbers are held as the text typed (a controlled number would rewrite "0." or "" under the caret)
 * and read against the settings schema, so a field takes exactly what the schema takes.
 */
export function EngineSettingsForm({ settings }: { settings: EngineSettings }) {
  const api = useApi()
  const update = useUpdateEngineSettings()
  const rights = useEngineRights()
  const [draft, setDraft] = useState(settings)
  const [texts, setTexts] = useState(() => textsOf(settings))
  const [refit, setRefit] = useState<'idle' | 'running' | 'done' | string>('idle')
  // What the refit changed against the fit before it ("after the refit, a summary").
  const [summary, setSummary] = useState<RefitChange | null>(null)
  useEffect(() => {
    setDraft(settings)
    setTexts(textsOf(settings))
  }, [settings])
  const set = <K extends keyof EngineSettings>(k: K, v: EngineSettings[K]) => setDraft((d) => ({ ...d, [k]: v }))
  const setText = (k: NumberKey, text: string) => setTexts((t) => ({ ...t, [k]: text }))

  const read = Object.fromEntries(
    (Object.keys(NUMBER_FIELDS) as NumberKey[]).map((k) => [k, readNumberText(NUMBER_FIELDS[k].name, texts[k], NUMBER_FIELDS[k].schema)])
  ) as Record<NumberKey, NumberText>
  const budgetKind = draft.budget.kind
  const budgetKey: NumberKey | null = budgetKind === 'absolute' ? 'beta' : budgetKind === 'relative' ? 'lambda' : null
  const inUse: NumberKey[] = [...(budgetKey ? [budgetKey] : []), 'delta', 'epsAct', 'spotRate']
  const problems = inUse.flatMap((k) => (read[k].ok ? [] : [read[k].message]))
  const value = (k: NumberKey): number | null => (read[k].ok ? read[k].value : null)

  /** The settings as the fields read, or null while one of them is not valid. */
  const candidate = (): EngineSettings | null => {
    if (problems.length > 0) return null
    const budget: BudgetSetting =
      budgetKind === 'absolute' ? { kind: 'absolute', beta: value('beta')! } : budgetKind === 'relative' ? { kind: 'relative', lambda: value('lambda')! } : { kind: 'auto' }
    return { ...draft, budget, delta: value('delta')!, epsAct: value('epsAct')!, spotRate: value('spotRate')! }
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const next = candidate()
    if (next === null) {
      setRefit(`Not saved: ${problems.join(' ')}`)
      return
    }
    setSummary(null)
    try {
      await update.mutateAsync(diff(settings, next))
      setRefit('running')
      const fit = await api['fits.run']({})
      setSummary(await api['fits.change']({ fitId: fit.id }))
      setRefit('done')
    } catch (err) {
      setRefit(err instanceof Error ? err.message : String(err))
    }
  }

  const meaningReady = (budgetKey !== 'beta' || read.beta.ok) && read.delta.ok && read.epsAct.ok
  return (
    <form className="panel" onSubmit={submit} aria-labelledby="engine-heading" noValidate>
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
            <select value={budgetKind} onChange={(e) => set('budget', budgetOfKind(e.target.value as BudgetKind, draft.budget))} aria-label="Budget kind" data-testid="settings-budget-kind">
              <option value="auto">λ = auto (chosen on the calibration set)</option>
              <option value="relative">relative: β = λ · error</option>
              <option value="absolute">absolute β</option>
            </select>
            <NumberField
              testId="settings-budget"
              label={budgetKey === 'lambda' ? 'λ' : 'β'}
              text={budgetKey === null ? '' : texts[budgetKey]}
              read={budgetKey === null ? null : read[budgetKey]}
              disabled={budgetKey === null}
              placeholder="auto"
              onText={(t) => budgetKey && setText(budgetKey, t)}
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
          <NumberField testId="settings-delta" text={texts.delta} read={read.delta} onText={(t) => setText('delta', t)} />
        </label>
        <label className="field">
          <span>ε_act (representation gap)</span>
          <NumberField testId="settings-eps-act" text={texts.epsAct} read={read.epsAct} onText={(t) => setText('epsAct', t)} />
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
          <NumberField testId="settings-spot-rate" text={texts.spotRate} read={read.spotRate} onText={(t) => setText('spotRate', t)} />
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
        What β means:{' '}
        {meaningReady ? budgetMeaning(budgetKey === 'beta' ? value('beta') : null, value('delta')!, value('epsAct')!) : 'correct the fields marked above to see it.'}
        {meaningReady && budgetKind !== 'absolute' && ' (β itself is worked out at each fit from the calibration set; the fit reports it.)'}
      </p>
      <p className="muted small">The certificate always uses blind (random) labels only: its guarantee needs exchangeable calibration data.</p>
      <WhatIfPanel draft={candidate()} />
      <div className="actions">
        <button type="submit" data-testid="settings-save" disabled={rights.allowed !== true || update.isPending || refit === 'running'}>
          Save and refit
        </button>
        {rights.why !== null && (
          <span className="muted small" data-testid="settings-engine-locked">
            {rights.why} You may still try values in the what-if above.
          </span>
        )}
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
      {refit === 'done' && summary !== null && <RefitSummary change={summary} testId="settings-refit-summary" title="What the refit changed" />}
    </form>
  )
}

/** The budget of another kind; the numbers come from the fields at submit. */
function budgetOfKind(kind: BudgetKind, current: BudgetSetting): BudgetSetting {
  if (kind === current.kind) return current
  return kind === 'absolute' ? { kind, beta: 0.2 } : kind === 'relative' ? { kind, lambda: 1 } : { kind }
}

function diff(a: EngineSettings, b: EngineSettings): Partial<EngineSettings> {
  const out: Partial<EngineSettings> = {}
  for (const k of Object.keys(b) as (keyof EngineSettings)[]) {
    if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) (out as Record<string, unknown>)[k] = b[k]
  }
  return out
}
