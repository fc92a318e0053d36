import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import type { BridgeApi } from '@shared/api'
import { ApiProvider } from './api/context'
import { createHttpBridge } from './api/http-bridge'
import { adoptSecretFromUrl } from './api/web-session'
import { App } from './App'
import './styles.css'

/**
 * Picks the bridge: the preload's `window.api` in Electron, the HTTP bridge in a browser.
 * Under file:// a missing preload is fatal: silently falling back to HTTP there would hide a
 * broken desktop build.
 */
function pickBridge(): BridgeApi | null {
  if (window.api) return window.api
  if (window.location.protocol === 'file:') return null
  adoptSecretFromUrl()
  return createHttpBridge()
}

const root = createRoot(document.getElementById('root')!)
const bridge = pickBridge()
if (!bridge) {
  root.render(
    <div className="fatal" role="alert">
      <h1>Arbiter could not start</h1>
      <p>The preload bridge failed to load, so this window cannot reach the database. Reinstall Arbiter or report the problem.</p>
    </div>
  )
} else {
  root.render(
    <StrictMode>
      <ApiProvider bridge={bridge}>
        <App />
      </ApiProvider>
    </StrictMode>
  )
}
