import { useEffect, useState, type FormEvent } from 'react'
import type { TeamSettings } from '@shared/api'
import { useTeamSettings, useUpdateTeamSettings } from '../api/team-queries'
import { SaveStatus } from '../components/SaveStatus'
import { ErrorState, Loading } from '../components/States'

/** "a, b ,c" → ["a", "b", "c"]: the adjudicators field is a comma-separated list of reviewer names. */
export function parseNames(text: string): string[] {
  return [...new Set(text.split(',').map((s) => s.trim()).filter((s) => s !== ''))]
}

/** Team settings, shared by everyone on this database: reviewers per task, adjudicators. */
export function TeamSettingsPanel() {
  const team = useTeamSettings()
  if (team.isPending) return <Loading />
  if (team.isError) return <ErrorState error={team.error} />
  return <TeamSettingsForm settings={team.data} />
}

function TeamSettingsForm({ settings }: { settings: TeamSettings }) {
  const update = useUpdateTeamSettings()
  const [perTask, setPerTask] = useState(String(settings.reviewersPerTask))
  const [adjudicators, setAdjudicators] = useState(settings.adjudicators.join(', '))
  useEffect(() => setPerTask(String(settings.reviewersPerTask)), [settings.reviewersPerTask])
  useEffect(() => setAdjudicators(settings.adjudicators.join(', ')), [settings.adjudicators])

  const n = Number(perTask)
  const valid = Number.isInteger(n) && n >= 1 && n <= 20
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (valid) update.mutate({ reviewersPerTask: n, adjudicators: parseNames(adjudicators) })
  }
  return (
    <form className="panel" onSubmit={submit} aria-labelledby="team-heading" data-testid="settings-team">
      <h2 id="team-heading">Team</h2>
      <div className="form-grid">
        <label className="field">
          <span>Reviewers per task (a task stays sealed in Calibrate — no reviewer sees another’s label before giving their own — until this many reviewers labeled it)</span>
          <input
            data-testid="settings-reviewers-per-task"
            type="number"
            min={1}
            max={20}
            step={1}
            value={perTask}
            onChange={(e) => setPerTask(e.target.value)}
            aria-invalid={!valid}
          />
        </label>
        <label className="field">
          <span>Adjudicators (reviewer names, comma-separated; empty: anyone may adjudicate)</span>
          <input data-testid="settings-adjudicators" value={adjudicators} maxLength={2000} onChange={(e) => setAdjudicators(e.target.value)} />
        </label>
      </div>
      <p className="muted small">
        With more than one reviewer per task, reviewers do not see each other’s labels of a task until they have labeled it; disagreements go to
        Adjudicate.
      </p>
      <div className="actions">
        <button type="submit" data-testid="settings-team-save" disabled={update.isPending || !valid}>
          Save team settings
        </button>
        {!valid && <span className="error-text">Reviewers per task: a whole number from 1 to 20.</span>}
        <SaveStatus state={update} />
      </div>
    </form>
  )
}
