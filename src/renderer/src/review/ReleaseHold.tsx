import { useState } from 'react'
import { mayAdjudicate, type Reservation } from '@shared/api'
import { useApi } from '../api/context'
import { useAppInfo, useSettings } from '../api/queries'
import { useTeamSettings } from '../api/team-queries'
import { useToast } from '../components/Toasts'

/**
 * An adjudicator's way out of a hold someone left behind: ends `holder`'s hold on the
 * task. Shown only to an adjudicator; the server checks again. Once it is free, this window's own
 * reservation takes the task (use-reservation.ts retries on every change of tasks).
 */
export function ReleaseHold({ holder }: { holder: Reservation }) {
  const api = useApi()
  const toast = useToast()
  const settings = useSettings()
  const team = useTeamSettings()
  const info = useAppInfo()
  const [busy, setBusy] = useState(false)
  const me = settings.data?.reviewer
  if (me === undefined || team.data === undefined || info.data === undefined || !mayAdjudicate(team.data, me, info.data.reviewerFromToken)) return null
  const release = () => {
    setBusy(true)
    api['task.releaseHold']({ taskId: holder.taskId })
      .then((r) => toast({ kind: 'info', text: r.released === null ? 'The task was already free.' : `Released ${r.released.reviewer}'s hold.` }))
      .catch((e: unknown) => toast({ kind: 'error', text: `Not released: ${String((e as Error).message)}` }))
      .finally(() => setBusy(false))
  }
  return (
    <button type="button" data-testid="release-hold" disabled={busy} onClick={release}>
      Release {holder.reviewer}&apos;s hold
    </button>
  )
}
