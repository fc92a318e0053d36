import { useCallback, useEffect, useState, type FormEvent } from 'react'
import { DWELL_MAX_MS, THEMES, type IntegrityReport, type Settings } from '@shared/api'
import type { ApiEvent } from '@shared/events'
import { useApi, useApiEvents } from '../api/context'
import { useAppInfo, useEngineSettings, useSettings, useUpdateSettings } from '../api/queries'
import { DefaultsNoticePanel } from '../settings/DefaultsNotice'
import { EngineSettingsForm } from '../settings/EngineSettingsForm'
import { TeamSettingsPanel } from '../settings/TeamSettingsForm'
import { ProgressBar, type Progress } from '../components/ProgressBar'
import { ErrorState, Loading } from '../components/States'

export function SettingsScreen() {
  const settings = useSettings()
  const info = useAppInfo()
  const engine = useEngineSettings()
  if (settings.isPending || info.isPending || engine.isPending) return <Loading />
  if (engine.isError) return <ErrorState error={engine.error} />
  if (settings.isError) return <ErrorState error={settings.error} />
  if (info.isError) return <ErrorState error={info.error} />
  return (
    <div className="screen">
      <header className="screen-header">
        <h1>Settings</h1>
      </header>
      <SettingsForm settings={settings.data} nameFromLogin={info.data.reviewerFromToken} />
      <DefaultsNoticePanel />
      <EngineSettingsForm settings={engine.data} />
      <TeamSettingsPanel />
      <section className="panel" aria-labelledby="db-heading">
        <h2 id="db-heading">Database</h2>
        <dl className="facts">
          <dt>Location</dt>
          <dd data-testid="db-location">{info.data.dbLocation}</dd>
          <dt>Backend</dt>
          <dd>{info.data.backend}</dd>
          <dt>Schema version</dt>
          <dd>{info.data.schemaVersion}</dd>
          <dt>Arbiter</dt>
          <dd>
            {info.data.version} ({info.data.shell})
          </dd>
        </dl>
        <IntegrityCheck />
      </section>
    </div>
  )
}

function SettingsForm({ settings, nameFromLogin }: { settings: Settings; nameFromLogin: boolean }) {
  const update = useUpdateSettings()
  const [reviewer, setReviewer] = useState(settings.reviewer)
  useEffect(() => setReviewer(settings.reviewer), [settings.reviewer])
  const [dwell, setDwell] = useState(String(settings.dwellMs))
  useEffect(() => setDwell(String(settings.dwellMs)), [settings.dwellMs])

  const dwellMs = dwell.trim() === '' ? NaN : Number(dwell)
  const dwellValid = Number.isInteger(dwellMs) && dwellMs >= 0 && dwellMs <= DWELL_MAX_MS
  const patch: Partial<Settings> = {
    ...(!nameFromLogin && reviewer.trim() !== '' && reviewer !== settings.reviewer ? { reviewer } : {}),
    ...(dwellValid && dwellMs !== settings.dwellMs ? { dwellMs } : {})
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (Object.keys(patch).length > 0) update.mutate(patch)
  }
  return (
    <form className="panel" onSubmit={submit} aria-labelledby="you-heading">
      <h2 id="you-heading">You</h2>
      <label className="field">
        <span>Reviewer name (recorded with every label you give)</span>
        <input data-testid="settings-reviewer" value={reviewer} maxLength={80} readOnly={nameFromLogin} onChange={(e) => setReviewer(e.target.value)} />
        {nameFromLogin && (
          <span className="muted small" data-testid="settings-reviewer-locked">
            Set by your login link: the person running <code>arbiter serve --reviewer</code> named you; it cannot be changed here.
          </span>
        )}
      </label>
      <label className="field">
        <span>Theme</span>
        <select value={settings.theme} onChange={(e) => update.mutate({ theme: e.target.value as Settings['theme'] })}>
          {THEMES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Reading time before a label counts (ms, 0 – {DWELL_MAX_MS})</span>
        <input
          data-testid="settings-dwell"
          type="number"
          min={0}
          max={DWELL_MAX_MS}
          step={50}
          value={dwell}
          aria-invalid={!dwellValid}
          onChange={(e) => setDwell(e.target.value)}
        />
        <span className="muted small">
          A digit, Enter or a click on a candidate labels a task only once it has been on screen this long; a quicker one is dropped with a hint, never
          queued, and a held key never labels. 0 turns the minimum off.
        </span>
      </label>
      <div className="actions">
        <button type="submit" disabled={update.isPending || !dwellValid || Object.keys(patch).length === 0}>
          Save
        </button>
        {update.isError && (
          <span role="alert" className="error-text">
            {update.error instanceof Error ? update.error.message : 'not saved'}
          </span>
        )}
        {update.isSuccess && <span role="status">Saved.</span>}
      </div>
    </form>
  )
}

function IntegrityCheck() {
  const api = useApi()
  const [running, setRunning] = useState(false)
  const [progress, setProgress] = useState<Progress | null>(null)
  const [report, setReport] = useState<IntegrityReport | null>(null)
  const [error, setError] = useState<string | null>(null)

  useApiEvents(
    useCallback((e: ApiEvent) => {
      if (e.type === 'job' && e.kind === 'integrity-check') setProgress({ done: e.done, total: e.total, message: e.message })
    }, [])
  )

  const run = async () => {
    setRunning(true)
    setError(null)
    setReport(null)
    try {
      setReport(await api['db.checkIntegrity']({}))
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    } finally {
      setRunning(false)
    }
  }

  return (
    <div className="integrity">
      <button type="button" onClick={run} disabled={running} data-testid="integrity-run">
        Check database integrity
      </button>
      {running && (
        <ProgressBar progress={progress} label="starting" />
      )}
      {report && (
        <p role="status" data-testid="integrity-result" data-ok={String(report.ok)}>
          {report.ok ? 'The database is intact.' : `Problems found: ${report.messages.join('; ')}`}
        </p>
      )}
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
    </div>
  )
}
