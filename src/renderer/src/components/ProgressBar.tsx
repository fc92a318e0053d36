export interface Progress {
  done: number
  total: number
  message: string | null
}

/** The one progress bar of long jobs (imports, refits, the audit, the integrity check). */
export function ProgressBar({ progress, label }: { progress: Progress | null; label: string }) {
  const share = progress ? progress.done / Math.max(1, progress.total) : 0
  return (
    <div className="progress" data-testid="progress" role="progressbar" aria-valuemin={0} aria-valuemax={progress?.total ?? 1} aria-valuenow={progress?.done ?? 0}>
      <div className="progress-fill" style={{ width: `${100 * share}%` }} />
      <span>{progress?.message ?? label}</span>
    </div>
  )
}
