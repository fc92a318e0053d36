import { useQuery } from '@tanstack/react-query'
import { useCallback, useRef, useState, type DragEvent } from 'react'
import type { ImportProblem, ImportSummary, PickedFile } from '@shared/api'
import { groupProblems } from '@shared/problem-groups'
import type { ApiEvent } from '@shared/events'
import { IMPORT_FILE_EXTENSIONS } from '@shared/contract/upload'
import { useApi, useApiEvents } from '../api/context'
import { useAppInfo } from '../api/queries'
import { uploadFile } from '../api/upload-file'
import { ProgressBar, type Progress } from '../components/ProgressBar'
import { ErrorState, Loading } from '../components/States'
import { callKey } from '../api/call-keys'

const ACCEPT = IMPORT_FILE_EXTENSIONS.map((e) => `.${e}`).join(',')

type Columns = 'task,worker,label' | 'worker,task,label' | 'task,label,worker'

export function ImportScreen() {
  const api = useApi()
  const input = useRef<HTMLInputElement>(null)
  // The desktop app's main process opens the file dialog and reads the file in place (`imports.pick`);
  // the browser uploads the file the page was given, slice by slice.
  const shell = useAppInfo().data?.shell
  const desktop = shell === 'electron'
  const [file, setFile] = useState<File | null>(null)
  const [picked, setPicked] = useState<PickedFile | null>(null)
  const chosen = desktop ? picked?.fileName ?? null : file?.name ?? null
  const [skipInvalid, setSkipInvalid] = useState(false)
  const [goldAs, setGoldAs] = useState<'random' | 'escalation' | ''>('')
  const [columns, setColumns] = useState<Columns>('task,worker,label')
  const [delimiter, setDelimiter] = useState<'' | 'comma' | 'semicolon' | 'tab' | 'space'>('')
  const [header, setHeader] = useState(true)
  const [phase, setPhase] = useState<'idle' | 'uploading' | 'importing'>('idle')
  const [progress, setProgress] = useState<Progress | null>(null)
  const [result, setResult] = useState<ImportSummary | null>(null)
  const [error, setError] = useState<string | null>(null)
  const history = useQuery({ queryKey: callKey('imports.list'), queryFn: () => api['imports.list']({ limit: 20 }) })
  const csv = chosen !== null && /\.(csv|tsv|txt)$/i.test(chosen)

  useApiEvents(
    useCallback((e: ApiEvent) => {
      if (e.type === 'job' && e.kind.startsWith('import')) setProgress({ done: e.done, total: e.total, message: e.message })
    }, [])
  )

  const pick = async () => {
    setError(null)
    try {
      const got = await api['imports.pick']({})
      if (got !== null) setPicked(got)
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }

  const run = async () => {
    if (chosen === null) return
    setError(null)
    setResult(null)
    try {
      let uploadId: string
      if (desktop && picked !== null) {
        uploadId = picked.uploadId
        // The import forgets the pick (the file stays where it is): another import picks again.
        setPicked(null)
      } else if (file !== null) {
        setPhase('uploading')
        uploadId = await uploadFile(api, file, (done, total) => setProgress({ done, total, message: 'uploading' }))
      } else return
      setPhase('importing')
      const res = await api['imports.run']({
        source: { kind: 'upload', uploadId },
        kind: 'auto',
        skipInvalid,
        goldAs: goldAs === '' ? null : goldAs,
        dialect: { columns: csv ? (columns.split(',') as ['task' | 'worker' | 'label', 'task' | 'worker' | 'label', 'task' | 'worker' | 'label']) : null, delimiter: csv && delimiter !== '' ? delimiter : null, header },
        gold: null
      })
      setResult(res)
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    } finally {
      setPhase('idle')
      setProgress(null)
    }
  }

  const onDrop = (e: DragEvent) => {
    e.preventDefault()
    if (desktop) return
    const f = e.dataTransfer.files[0]
    if (f) setFile(f)
  }

  return (
    <div className="screen">
      <header className="screen-header">
        <h1>Import</h1>
      </header>
      <section className="panel dropzone" onDragOver={(e) => e.preventDefault()} onDrop={onDrop} aria-labelledby="import-heading">
        <h2 id="import-heading">Council traces and labels</h2>
        <p className="muted">
          A trace file (<code>arbiter.trace/1</code> JSONL), debate rounds (CSV, TSV or JSONL, one row per seat per round: found by its{' '}
          <code>round</code>, <code>seat</code> and <code>answer</code> columns), a label-aggregation CSV/TSV, or a label file (
          <code>arbiter.labels/1</code>). {desktop ? 'Choose it.' : 'Drop it here or choose it.'} The whole file is validated before anything is written; an invalid file imports nothing.
        </p>
        {desktop ? (
          <p>
            <button type="button" data-testid="import-pick" onClick={pick} disabled={phase !== 'idle'}>
              Choose a file…
            </button>{' '}
            {picked && <span className="mono">{picked.fileName}</span>}
          </p>
        ) : (
          shell !== undefined && <input ref={input} type="file" data-testid="import-file" accept={ACCEPT} onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        )}
        {csv && (
          <fieldset className="dialect">
            <legend>CSV dialect</legend>
            <p className="muted">Label-aggregation files only; debate rounds (a header naming round, seat and answer) use only the delimiter.</p>
            <label>
              columns{' '}
              <select value={columns} onChange={(e) => setColumns(e.target.value as Columns)}>
                <option>task,worker,label</option>
                <option>worker,task,label</option>
                <option>task,label,worker</option>
              </select>
            </label>
            <label>
              delimiter{' '}
              <select value={delimiter} data-testid="import-delimiter" onChange={(e) => setDelimiter(e.target.value as typeof delimiter)}>
                <option value="">by extension</option>
                <option value="comma">comma</option>
                <option value="semicolon">semicolon</option>
                <option value="tab">tab</option>
                <option value="space">space</option>
              </select>
            </label>
            <label className="inline">
              <input type="checkbox" checked={header} onChange={(e) => setHeader(e.target.checked)} /> first line is a header
            </label>
          </fieldset>
        )}
        <div className="options">
          <label className="inline">
            <input type="checkbox" checked={skipInvalid} onChange={(e) => setSkipInvalid(e.target.checked)} /> skip invalid lines (and list them)
          </label>
          <label>
            gold in the file{' '}
            <select value={goldAs} onChange={(e) => setGoldAs(e.target.value as typeof goldAs)}>
              <option value="">stays hidden truth</option>
              <option value="random">becomes random labels</option>
              <option value="escalation">becomes escalation labels</option>
            </select>
          </label>
        </div>
        <button type="button" onClick={run} disabled={chosen === null || phase !== 'idle'}>
          Import {chosen ?? ''}
        </button>
        {phase !== 'idle' && (
          <ProgressBar progress={phase === 'uploading' && progress ? { ...progress, message: 'uploading' } : progress} label="validating" />
        )}
        {error && (
          <p role="alert" className="error-text">
            {error}
          </p>
        )}
      </section>
      {result && <ImportResult result={result} />}
      <section className="panel" aria-labelledby="history-heading">
        <h2 id="history-heading">Imported files</h2>
        {history.isPending ? (
          <Loading />
        ) : history.isError ? (
          <ErrorState error={history.error} />
        ) : history.data.length === 0 ? (
          <p className="muted">Nothing imported yet.</p>
        ) : (
          <table className="data">
            <thead>
              <tr>
                <th scope="col">file</th>
                <th scope="col">kind</th>
                <th scope="col">tasks</th>
                <th scope="col">moves</th>
                <th scope="col">labels</th>
                <th scope="col">by</th>
                <th scope="col">published</th>
              </tr>
            </thead>
            <tbody>
              {history.data.map((h) => (
                <tr key={h.id}>
                  <td>{h.fileName}</td>
                  <td>{h.kind}</td>
                  <td>{h.counts.tasks}</td>
                  <td>{h.counts.moves}</td>
                  <td>{h.counts.labels}</td>
                  <td>{h.createdBy}</td>
                  <td>{h.publishedAt ? new Date(h.publishedAt).toLocaleString() : 'staged'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  )
}

function ImportResult({ result }: { result: ImportSummary }) {
  const rejected = result.status === 'rejected'
  return (
    <section className={`panel ${rejected ? 'error-state' : ''}`} data-testid={rejected ? undefined : 'import-summary'} data-status={result.status} aria-live="polite">
      <h2>{rejected ? `${result.file} was not imported` : result.status === 'already-imported' ? `${result.file} was already imported` : `${result.file} imported`}</h2>
      {!rejected && (
        <p>
          {result.tasks} tasks written, {result.skipped} already present, {result.moves} moves, {result.seats} seats, {result.labels} labels.
        </p>
      )}
      {result.errorCount > 0 && (
        <>
          <p>
            {result.errorCount} {result.errorCount === 1 ? 'problem' : 'problems'}
            {rejected ? ' — nothing was written:' : ' — these lines were skipped:'}
            {result.errorCount > result.errors.length && ` (first ${result.errors.length} shown)`}
          </p>
          <ol className="import-errors">
            {groupProblems(result.errors).map((g, i) =>
              g.kind === 'one' ? (
                <ProblemLine key={i} problem={g.problem} />
              ) : (
                <li key={i} data-testid="import-error-group" data-rule={g.rule} data-count={g.count}>
                  <strong>
                    {g.count} {g.unit}: {g.rule}
                  </strong>{' '}
                  — the first {g.first.length}:
                  <ol className="import-errors">
                    {g.first.map((p, j) => (
                      <ProblemLine key={j} problem={p} />
                    ))}
                  </ol>
                  <span className="muted">… and {g.count - g.first.length} more of the same rule.</span>
                </li>
              )
            )}
          </ol>
        </>
      )}
    </section>
  )
}

function ProblemLine({ problem: e }: { problem: ImportProblem }) {
  return (
    <li data-testid="import-error" data-line={e.line} data-rule={e.rule}>
      <span className="mono">
        {e.file}:{e.line}
      </span>
      {e.task && <> · task {e.task}</>}
      {e.move && <> · move {e.move}</>} · <strong>{e.rule}</strong> — {e.message}
    </li>
  )
}
