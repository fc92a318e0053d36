import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { EngineSettings, QueueRow, Settings, TaskFilterArgs } from '@shared/api'
import { useApi } from './context'
import { callKey } from './call-keys'

export function useAppInfo() {
  const api = useApi()
  return useQuery({ queryKey: callKey('app.info'), queryFn: () => api['app.info']({}) })
}

export function useCounts() {
  const api = useApi()
  return useQuery({ queryKey: callKey('app.counts'), queryFn: () => api['app.counts']({}) })
}

export function useSettings() {
  const api = useApi()
  return useQuery({ queryKey: callKey('settings.get'), queryFn: () => api['settings.get']({}) })
}

export function useUpdateSettings() {
  const api = useApi()
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (patch: Partial<Settings>) => api['settings.update']({ patch }),
    onSuccess: (settings) => qc.setQueryData(callKey('settings.get'), settings)
  })
}

export type QueueSort = 'gap' | 'age' | 'disagreement' | 'group'

export interface QueueQuery {
  filter: TaskFilterArgs
  sort: QueueSort
  direction: 'asc' | 'desc'
}

export const QUEUE_PAGE = 100

/** One page of the queue; pages are cached per filter and sort so scrolling back is free. */
export function useQueuePage(q: QueueQuery, page: number, enabled = true) {
  const api = useApi()
  return useQuery({
    queryKey: callKey('queue.page', q, page),
    queryFn: () => api['queue.page']({ filter: q.filter, sort: q.sort, direction: q.direction, offset: page * QUEUE_PAGE, limit: QUEUE_PAGE }),
    placeholderData: page === 0 ? keepPreviousData : undefined,
    enabled
  })
}

export function useFacets() {
  const api = useApi()
  return useQuery({ queryKey: callKey('queue.facets'), queryFn: () => api['queue.facets']({}), staleTime: 30_000 })
}

export function useTaskDetail(taskId: string | null, blind = false) {
  const api = useApi()
  return useQuery({
    queryKey: callKey('task.detail', taskId, blind),
    queryFn: () => api['task.detail']({ taskId: taskId!, blind }),
    enabled: taskId !== null,
    // A task revealed after its blind label (Calibrate) keeps its blind detail on screen while the
    // full one loads, instead of a spinner in its place: the task stays mounted, so the Enter
    // pressed right after the label moves on rather than falling into the gap. Never the other way
    // (a revealed detail standing in for a blind one would show the verdict), never another task.
    placeholderData: (previous, query) => {
      const key = query?.queryKey
      return key !== undefined && key[1] === taskId && key[2] === true && !blind ? previous : undefined
    }
  })
}

/** The caller's own last labels, newest first, from the store (the history panel; undo's rules: use-undo.ts). */
export function useLabelHistory(limit = 20) {
  const api = useApi()
  return useQuery({ queryKey: callKey('labels.history', limit), queryFn: () => api['labels.history']({ limit }) })
}

export function useEngineSettings() {
  const api = useApi()
  return useQuery({ queryKey: callKey('engine.getSettings'), queryFn: () => api['engine.getSettings']({}) })
}

export function useUpdateEngineSettings() {
  const api = useApi()
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (patch: Partial<EngineSettings>) => api['engine.updateSettings']({ patch }),
    onSuccess: (s) => qc.setQueryData(callKey('engine.getSettings'), s)
  })
}

/** The old-database notice (docs/engine.md §10): set when this version kept an older database's defaults. */
export function useDefaultsNotice() {
  const api = useApi()
  return useQuery({ queryKey: callKey('engine.defaultsNotice'), queryFn: () => api['engine.defaultsNotice']({}) })
}

export function useDismissDefaultsNotice() {
  const api = useApi()
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () => api['engine.dismissDefaultsNotice']({}),
    onSuccess: () => qc.setQueryData(callKey('engine.defaultsNotice'), null)
  })
}

export function useDemoStatus() {
  const api = useApi()
  return useQuery({ queryKey: callKey('demo.status'), queryFn: () => api['demo.status']({}), staleTime: 60_000 })
}

export function useFitStatus() {
  const api = useApi()
  return useQuery({ queryKey: callKey('fits.status'), queryFn: () => api['fits.status']({}) })
}

export function useFits() {
  const api = useApi()
  return useQuery({ queryKey: callKey('fits.list'), queryFn: () => api['fits.list']({ limit: 50 }) })
}

/**
 * A row's decision as the queue names it: the answer the current decision stands on and where it
 * was read — acted: the stop round τ; deferred: the draft answer at the certificate's last round
 * (docs/engine.md §8.8); labeled: the human label. Null when the row shows no answer (sealed).
 */
export function decisionOf(row: QueueRow): { answer: string; round: number | null; kind: 'act' | 'defer' | 'human'; where: string; title: string } | null {
  if (row.answer === null) return null
  const final = row.posterior?.[row.answer]
  const finalText = final === undefined ? '' : `; the final posterior gives it ${(100 * final).toFixed(0)}%`
  if (row.label !== null) return { answer: row.label.label, round: null, kind: 'human', where: '(label)', title: 'the effective human label' }
  if (row.decision === null) return null
  if (row.decision === 'act') {
    const r = row.stopRound
    return { answer: row.answer, round: r, kind: 'act', where: r === null ? '' : `· r${r}`, title: `acted on at round ${r ?? '—'}${finalText}` }
  }
  const last = row.bound !== null && row.bound.length > 0 ? row.bound.length - 1 : null
  return {
    answer: row.answer, round: last, kind: 'defer', where: last === null ? '· draft' : `· draft r${last}`,
    title: `deferred: the draft answer ${last === null ? 'on the whole debate (no certificate)' : `at the last round (round ${last})`}${finalText}`
  }
}
