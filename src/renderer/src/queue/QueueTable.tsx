import { useQueries, useQueryClient } from '@tanstack/react-query'
import { useTable } from '@tanstack/react-table'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useDeferredValue, useEffect, useMemo, useRef } from 'react'
import type { QueuePageResult, QueueRow } from '@shared/api'
import { useApi } from '../api/context'
import { QUEUE_PAGE, type QueueQuery } from '../api/queries'
import { columns, features } from './columns'
import { useFling } from './use-fling'
import { callKey } from '../api/call-keys'

const ROW_HEIGHT = 34
/** The sticky header's height: the rows start below it, and a row scrolled to is never under it. */
const HEAD_HEIGHT = 30

interface Props {
  query: QueueQuery
  total: number
  cursor: number
  onOpen: (row: QueueRow, index: number) => void
}

/**
 * The queue as a virtual list over server pages: only the rows on screen exist in the DOM, and
 * only the pages they fall in are fetched (and cached), so 100,000 deferred tasks scroll like 100.
 */
export function QueueTable({ query, total, cursor, onOpen }: Props) {
  const api = useApi()
  const scrollRef = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 5,
    scrollMargin: HEAD_HEIGHT,
    scrollPaddingStart: HEAD_HEIGHT
  })
  const items = virtualizer.getVirtualItems()
  const flinging = useFling(virtualizer.scrollOffset ?? 0, virtualizer.isScrolling, virtualizer.scrollRect?.height ?? 0)
  const firstPage = items.length ? Math.floor(items[0].index / QUEUE_PAGE) : 0
  const lastPage = items.length ? Math.floor(items[items.length - 1].index / QUEUE_PAGE) : 0
  const pages = useQueries({
    queries: Array.from({ length: lastPage - firstPage + 1 }, (_, i) => firstPage + i).map((page) => ({
      queryKey: callKey('queue.page', query, page),
      queryFn: () => api['queue.page']({ filter: query.filter, sort: query.sort, direction: query.direction, offset: page * QUEUE_PAGE, limit: QUEUE_PAGE }),
      // A page a fling passes is not asked for (a cached one still shows).
      enabled: !flinging
    })),
    combine: pagesData
  })

  // The rows of the pages on screen, as one window the table renders; index = window offset + i.
  const fetched = useMemo(() => ({ start: firstPage * QUEUE_PAGE, rows: pages.flatMap((p, i) => p?.rows ?? placeholderPage(firstPage + i, total)) }), [pages, firstPage, total])
  // A page that arrives is drawn in a background render React splits into short slices, after the
  // scroll frame that asked for it, rather than in one task with that frame's layout (no
  // long task while scrolling).
  const shown = useDeferredValue(fetched)
  const windowStart = shown.start
  const windowRows = shown.rows
  const table = useTable({ features, columns, data: windowRows, getRowId: (r) => r.taskId })
  const rows = table.getRowModel().rows

  useEffect(() => {
    if (total > 0) virtualizer.scrollToIndex(Math.min(cursor, total - 1), { align: 'auto' })
  }, [cursor, total, virtualizer])

  // The task under the cursor, or under the pointer after a short pause on its row, is fetched
  // ahead, so Enter or a click opens it at once. The pointer is followed without re-rendering: rows
  // pass under a still pointer on every scroll frame.
  const qc = useQueryClient()
  const prefetch = useCallback(
    (taskId: string) => void qc.prefetchQuery({ queryKey: callKey('task.detail', taskId, false), queryFn: () => api['task.detail']({ taskId, blind: false }) }),
    [qc, api]
  )
  const cursorTask = windowRows[cursor - windowStart]?.taskId
  useEffect(() => {
    if (!cursorTask || cursorTask.startsWith('\u0000')) return
    const t = window.setTimeout(() => prefetch(cursorTask), 80)
    return () => window.clearTimeout(t)
  }, [cursorTask, prefetch])
  const hoverTimer = useRef<number | null>(null)
  const onHover = (taskId: string | null) => {
    if (hoverTimer.current !== null) window.clearTimeout(hoverTimer.current)
    hoverTimer.current = taskId === null ? null : window.setTimeout(() => prefetch(taskId), 80)
  }
  useEffect(() => () => void (hoverTimer.current !== null && window.clearTimeout(hoverTimer.current)), [])

  return (
    <div className="queue-table" role="grid" aria-rowcount={total} aria-label="Deferred tasks">
      <div ref={scrollRef} className="queue-scroll" tabIndex={-1}>
        <div className="queue-grid">
          <div className="queue-head" role="row" style={{ height: HEAD_HEIGHT }}>
            {table.getHeaderGroups()[0].headers.map((h) => (
              <div key={h.id} role="columnheader" className="cell">
                <table.FlexRender header={h} />
              </div>
            ))}
          </div>
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => {
              const row = rows[item.index - windowStart]
              const top = item.start - HEAD_HEIGHT
              if (!row || row.original.taskId.startsWith('\u0000')) {
                return <div key={item.key} className="queue-row loading-row" style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }} aria-busy="true" />
              }
              const selected = item.index === cursor
              return (
                <div
                  key={row.id}
                  role="row"
                  aria-rowindex={item.index + 1}
                  aria-selected={selected}
                  className={`queue-row${selected ? ' selected' : ''}`}
                  data-testid="queue-row"
                  data-task-id={row.original.taskId}
                  style={{ transform: `translateY(${top}px)`, height: ROW_HEIGHT }}
                  // One click opens the task (the cursor follows it, so the queue resumes there).
                  onClick={() => onOpen(row.original, item.index)}
                  onPointerEnter={() => onHover(row.original.taskId)}
                  onPointerLeave={() => onHover(null)}
                >
                  {row.getAllCells().map((cell) => (
                    <div key={cell.id} role="gridcell" className="cell">
                      <table.FlexRender cell={cell} />
                    </div>
                  ))}
                </div>
              )
            })}
          </div>
        </div>
      </div>
    </div>
  )
}

/** Each page's data, as one array that keeps its identity while no page changed (the window's memo depends on it). */
const pagesData = (results: { data: QueuePageResult | undefined }[]): (QueuePageResult | undefined)[] => results.map((r) => r.data)

/** Stand-ins for rows whose page is still loading (ids start with NUL, which no task id can). */
function placeholderPage(page: number, total: number): QueueRow[] {
  const n = Math.max(0, Math.min(QUEUE_PAGE, total - page * QUEUE_PAGE))
  return Array.from({ length: n }, (_, i) => ({
    taskId: `\u0000${page * QUEUE_PAGE + i}`,
    question: null,
    group: null,
    candidates: [],
    createdAt: new Date(0).toISOString(),
    version: 0,
    moves: 0,
    state: null,
    decision: null,
    spotCheck: false,
    answer: null,
    posterior: null,
    stopRound: null,
    gap: null,
    bound: null,
    disagreement: null,
    label: null,
    reservedBy: null,
    flags: 0
  }))
}
