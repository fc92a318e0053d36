import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'
import { CONTENT_SECURITY_POLICY } from './src/main/host/hardening'

const alias = { '@shared': resolve(__dirname, 'src/shared') }

/** Writes the one CSP (host/hardening.ts) into the built index.html. */
function injectCsp(): Plugin {
  return {
    name: 'arbiter-csp',
    transformIndexHtml: (html) => html.replace('%ARBITER_CSP%', CONTENT_SECURITY_POLICY)
  }
}

export default defineConfig({
  main: {
    resolve: { alias },
    build: {
      externalizeDeps: true,
      rolldownOptions: {
        // The worker thread is its own entry so the packaged app can start it from out/main.
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          'jobs-worker': resolve(__dirname, 'src/main/service/job-worker.ts')
        }
      }
    }
  },
  preload: {
    resolve: { alias },
    // A sandboxed preload may require only `electron`: bundle everything else into it.
    build: { externalizeDeps: false, rolldownOptions: { external: ['electron'] } }
  },
  renderer: {
    resolve: { alias },
    plugins: [react(), injectCsp()]
  }
})
