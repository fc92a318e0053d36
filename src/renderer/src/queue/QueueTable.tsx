import { useQueries, useQueryClient } from '@tanstack/react-query'
import { useTable } from '@tanstack/react-table'
import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useMemo, useRef } from 'react'
import type { QueueRow } from '@shared/api'
import { useApi } from '../api/context'
import { QUEUE_PAGE, type QueueQuery } from '../api/loop-queries'
import { columns, features, GRID_COLUMNS } from './columns'

const ROW_HEIGHT = 34

interface Props {
  query: QueueQuery
  total: number
  cursor: number
  onCursor: (i: number) => void
  onOpen: (row: QueueRow, index: number) => void
}

/**
 * The queue as a virtual list over server pages: only the rows on screen exist in the DOM, and
 * only the pages they fall in are fetched (and cached), so 100,000 deferred tasks scroll like 100.
 */
export function QueueTable({ query, total, cursor, onCursor, onOpen }: Props) {
  const api = useApi()
  const scrollRef = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scrollRef.current, estimateSize: () => ROW_HEIGHT, overscan: 12 })
  const items = virtualizer.getVirtualItems()
  const firstPage = items.length ? Math.floor(items[0].index / QUEUE_PAGE) : 0
  const lastPage = items.length ? Math.floor(items[items.length - 1].index / QUEUE_PAGE) : 0
  const pages = useQueries({
    queries: Array.from({ length: lastPage - firstPage + 1 }, (_, i) => firstPage + i).map((page) => ({
      queryKey: ['queue.page', query, page],
      queryFn: () => api['queue.page']({ filter: query.filter, sort: query.sort, direction: query.direction, offset: page * QUEUE_PAGE, limit: QUEUE_PAGE })
    }))
  })

  // The rows of the pages on screen, as one window the table renders; index = window offset + i.
  const windowStart = firstPage * QUEUE_PAGE
  const windowRows = useMemo(() => pages.flatMap((p, i) => p.data?.rows ?? placeholderPage(firstPage + i, total)), [pages, firstPage, total])
  const table = useTable({ features, columns, data: windowRows, getRowId: (r) => r.taskId })
  const rows = table.getRowModel().rows

  useEffect(() => {
    if (total > 0) virtualizer.scrollToIndex(Math.min(cursor, total - 1), { align: 'auto' })
  }, [cursor, total, virtualizer])

  // The task under the cursor is fetched ahead, so Enter opens it at once.
  const qc = useQueryClient()
  const cursorTask = windowRows[cursor - windowStart]?.taskId
  useEffect(() => {
    if (!cursorTask || cursorTask.startsWith('\u0000')) return
    const t = window.setTimeout(() => {
      void qc.prefetchQuery({ queryKey: ['task.detail', cursorTask, false], queryFn: () => api['task.detail']({ taskId: cursorTask, blind: false }) })
    }, 80)
    return () => window.clearTimeout(t)
  }, [cursorTask, qc, api])

  return (
    <div className="queue-table" role="grid" aria-rowcount={total} aria-label="Deferred tasks">
      <div className="queue-head" role="row" style={{ gridTemplateColumns: GRID_COLUMNS }}>
        {table.getHeaderGroups()[0].headers.map((h) => (
          <div key={h.id} role="columnheader" className="cell">
            <table.FlexRender header={h} />
          </div>
        ))}
      </div>
      <div ref={scrollRef} className="queue-scroll" tabIndex={-1}>
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => {
            const row = rows[item.index - windowStart]
            if (!row || row.original.taskId.startsWith('\u0000')) {
              return <div key={item.key} className="queue-row loading-row" style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }} aria-busy="true" />
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
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT, gridTemplateColumns: GRID_COLUMNS }}
                onClick={() => onCursor(item.index)}
                onDoubleClick={() => onOpen(row.original, item.index)}
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
  )
}

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
    reservedBy: null
  }))
}
