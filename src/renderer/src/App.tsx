import { useEffect } from 'react'
import { useAppInfo, useSettings } from './api/queries'
import { useConnectionState } from './api/connection'
import { signOut } from './api/web-session'
import { ConnectionBanner, ServerRestarted } from './components/ConnectionBanner'
import { DatabaseReplacedBanner } from './components/DatabaseReplacedBanner'
import { DemoBadge } from './components/DemoBadge'
import { RefitNotice } from './components/RefitNotice'
import { ToastProvider } from './components/Toasts'
import { QueueStateProvider } from './queue/queue-state'
import { ReviewSessionProvider } from './review/session'
import { hrefFor, useRoute, type Screen } from './router'
import { AdjudicateScreen } from './screens/AdjudicateScreen'
import { AuditScreen } from './screens/AuditScreen'
import { CalibrateScreen } from './screens/CalibrateScreen'
import { ImportScreen } from './screens/ImportScreen'
import { QueueScreen } from './screens/QueueScreen'
import { ReviewScreen } from './screens/ReviewScreen'
import { SettingsScreen } from './screens/SettingsScreen'

const NAV: { screen: Screen; label: string }[] = [
  { screen: 'queue', label: 'Queue' },
  { screen: 'review', label: 'Review' },
  { screen: 'calibrate', label: 'Calibrate' },
  { screen: 'adjudicate', label: 'Adjudicate' },
  { screen: 'audit', label: 'Audit' },
  { screen: 'import', label: 'Import' },
  { screen: 'settings', label: 'Settings' }
]

export function App() {
  return useConnectionState() === 'signed-out' ? <ServerRestarted /> : <Console />
}

function Console() {
  const route = useRoute()
  const settings = useSettings()
  const info = useAppInfo()

  useEffect(() => {
    document.documentElement.dataset.theme = settings.data?.theme ?? 'system'
  }, [settings.data?.theme])

  return (
    <ToastProvider>
      <QueueStateProvider>
        <ReviewSessionProvider>
          <RefitNotice screen={route.screen} />
          <Shell screen={route.screen} param={route.param} shell={info.data?.shell ?? null} reviewer={settings.data?.reviewer ?? null} />
        </ReviewSessionProvider>
      </QueueStateProvider>
    </ToastProvider>
  )
}

function Shell({ screen, param, shell, reviewer }: { screen: Screen; param: string | null; shell: string | null; reviewer: string | null }) {
  return (
    <div className="app">
      <nav className="sidebar" aria-label="Screens">
        <div className="brand">Arbiter</div>
        <ul>
          {NAV.map((n) => (
            <li key={n.screen}>
              <a href={hrefFor(n.screen)} data-testid={`nav-${n.screen}`} aria-current={screen === n.screen ? 'page' : undefined}>
                {n.label}
              </a>
            </li>
          ))}
        </ul>
        <div className="sidebar-foot">
          <DemoBadge />
          {reviewer && <span title="Reviewer">{reviewer}</span>}
          {shell && <span className="muted">{shell === 'web' ? 'browser console' : 'desktop'}</span>}
          {/* Only a browser has a session to end; the desktop window has no login. */}
          {shell === 'web' && !window.api && (
            <button type="button" className="small secondary sign-out" data-testid="sign-out" onClick={() => void signOut()}>
              Sign out
            </button>
          )}
        </div>
      </nav>
      <main className="content" id="main">
        <ConnectionBanner />
        <DatabaseReplacedBanner />
        <Current screen={screen} param={param} />
      </main>
    </div>
  )
}

function Current({ screen, param }: { screen: Screen; param: string | null }) {
  switch (screen) {
    case 'queue':
      return <QueueScreen />
    case 'review':
      return <ReviewScreen taskId={param} />
    case 'calibrate':
      return <CalibrateScreen />
    case 'adjudicate':
      return <AdjudicateScreen />
    case 'audit':
      return <AuditScreen />
    case 'import':
      return <ImportScreen />
    case 'settings':
      return <SettingsScreen />
  }
}
