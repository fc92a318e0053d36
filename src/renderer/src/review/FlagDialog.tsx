import { useState } from 'react'
import { FLAG_REASON_MAX } from '@shared/limits'
import { useHotkeys } from '../hooks/useHotkeys'

/**
 * "Flag / can't decide": the reason is required — a flag is a note to whoever
 * picks the task up next, not a label. Submitting hands the task back to the queue, marked.
 */
export function FlagDialog({ taskId, busy, onSubmit, onClose }: { taskId: string; busy: boolean; onSubmit: (reason: string) => void; onClose: () => void }) {
  const [reason, setReason] = useState('')
  useHotkeys({ Escape: onClose })
  const empty = reason.trim() === ''
  return (
    <div className="sheet-backdrop" role="presentation" onClick={onClose}>
      <form
        className="sheet flag-sheet"
        role="dialog"
        aria-modal="true"
        aria-labelledby="flag-title"
        data-testid="flag-dialog"
        onClick={(e) => e.stopPropagation()}
        onSubmit={(e) => {
          e.preventDefault()
          if (!empty && !busy) onSubmit(reason.trim())
        }}
      >
        <h2 id="flag-title">Flag: can’t decide</h2>
        <p className="muted">
          Say why you cannot decide <span className="mono">{taskId}</span>. This is not a label: the task goes back to the queue, marked as flagged, for
          someone else to pick up.
        </p>
        <textarea
          data-testid="flag-reason"
          rows={3}
          maxLength={FLAG_REASON_MAX}
          value={reason}
          autoFocus
          aria-label="Reason"
          placeholder="e.g. the question has two readings; needs a domain expert"
          onChange={(e) => setReason(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') onClose()
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) e.currentTarget.form?.requestSubmit()
          }}
        />
        <p className="actions">
          <button type="submit" data-testid="flag-submit" disabled={empty || busy}>
            Flag and move on <kbd>Ctrl+Enter</kbd>
          </button>{' '}
          <button type="button" className="secondary" onClick={onClose}>
            Cancel <kbd>Esc</kbd>
          </button>
        </p>
      </form>
    </div>
  )
}
