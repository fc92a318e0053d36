import { useState } from 'react'
import { useApi } from '../api/context'
import { useDemoStatus } from '../api/queries'

/**
 * A visible "demo data" badge, and one click to start with an empty database (the demo is kept) —
 * offered only where the server would allow it (never to a team's login, see `startEmptyRefusal`).
 */
export function DemoBadge() {
  const api = useApi()
  const demo = useDemoStatus()
  const [confirming, setConfirming] = useState(false)
  const [moved, setMoved] = useState<string | null>(null)
  if (!demo.data?.demo) return moved ? <p className="small muted">Demo kept at {moved}</p> : null
  const start = async () => {
    const res = await api['demo.startEmpty']({})
    setMoved(res.demoMovedTo)
    setConfirming(false)
  }
  return (
    <div className="demo">
      <span className="tag tag-demo" data-testid="demo-badge" title="A simulated council, so every screen has something to show">
        demo data
      </span>
      {demo.data.startEmptyRefusal !== null ? null : confirming ? (
        <span className="demo-confirm">
          <button type="button" className="small" data-testid="demo-start-empty" onClick={() => void start()}>
            Start empty
          </button>
          <button type="button" className="small secondary" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </span>
      ) : (
        <button type="button" className="small secondary" data-testid="demo-start-empty-offer" onClick={() => setConfirming(true)}>
          Start empty…
        </button>
      )}
    </div>
  )
}
