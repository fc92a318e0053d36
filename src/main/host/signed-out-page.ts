import type { IncomingMessage } from 'node:http'

/**
 * What a browser NAVIGATING to the console gets without a valid login (401, never raw JSON): a
 * page that says what happened and what to do. Three cases, told apart by what the browser sent:
 * - `restarted`: a cookie for this port that no login knows — this browser was signed in, and the
 *   server started since (every start draws new tokens);
 * - `old-link`: a printed link whose token no login knows, from a browser that never signed in
 *   here — the link is from an earlier start;
 * - `ended`: a cookie of a session that ended — this browser signed out, or made no call for the
 *   session's idle lifetime;
 * - `signed-out`: neither — this browser has not opened a printed link yet (or signed out, which
 *   removes the cookie).
 * It never re-authenticates by itself: only the URL the server printed carries a token. No script
 * and nothing remote; its own small style sheet inline (sent with `SESSION_PAGE_CSP`), in the
 * console's colours, light or dark.
 */
export type SignedOutReason = 'restarted' | 'old-link' | 'ended' | 'signed-out'

export function wantsHtml(req: IncomingMessage, pathname: string): boolean {
  if (req.method !== 'GET' || pathname.startsWith('/api/')) return false
  return String(req.headers.accept ?? '').includes('text/html')
}

/** The console's palette (styles.css): the same ground, panel, text and accent, light and dark. */
const STYLE =
  ':root{color-scheme:light dark;--bg:#f6f7f9;--panel:#fff;--text:#1b1f24;--muted:#5b6470;--border:#d9dee4;--accent:#2f5bd3;--sidebar:#1e2633;--sidebar-text:#d6dce5}' +
  '@media (prefers-color-scheme:dark){:root{--bg:#14181f;--panel:#1c222b;--text:#e4e8ee;--muted:#9aa4b1;--border:#2e3744;--accent:#7aa2ff;--sidebar:#0f1319;--sidebar-text:#c9d1dc}}' +
  'body{margin:0;min-height:100vh;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--text)}' +
  'header{background:var(--sidebar);color:var(--sidebar-text);padding:14px 24px;font-weight:700;font-size:18px;letter-spacing:.02em}' +
  'main{max-width:38rem;margin:10vh auto;padding:20px 24px;background:var(--panel);border:1px solid var(--border);border-left:4px solid var(--accent);border-radius:8px}' +
  'h1{font-size:20px;margin:0 0 8px}p{margin:8px 0}.muted{color:var(--muted)}' +
  'code{font-family:ui-monospace,Menlo,monospace;font-size:13px;background:var(--bg);border:1px solid var(--border);border-radius:4px;padding:0 4px}'

const TEXT: Record<SignedOutReason, { title: string; lead: string; next: string }> = {
  restarted: {
    title: 'The Arbiter server restarted',
    lead: 'The console server was restarted since this page was opened, so this browser’s sign-in is no longer valid.',
    next: 'Open the URL that <code>arbiter serve</code> printed when it started again (it carries the new token), then come back to your work: your labels are saved.'
  },
  'old-link': {
    title: 'This sign-in link is out of date',
    lead: 'The link you opened was printed by an earlier start of this console server. Every start prints new links, so this one no longer signs anyone in.',
    next: 'Ask whoever runs <code>arbiter serve</code> for the link it printed when it last started (each reviewer has their own), and open that one.'
  },
  ended: {
    title: 'This browser’s session ended',
    lead: 'This browser signed out of this console server, or left it unused long enough that its session ended.',
    next: 'Open the URL that <code>arbiter serve</code> printed when it started (it carries the token; each reviewer has their own) to sign in again.'
  },
  'signed-out': {
    title: 'Sign in with the link the server printed',
    lead: 'This browser is not signed in to this console server.',
    next: 'Open the URL that <code>arbiter serve</code> printed when it started (it carries the token; each reviewer has their own).'
  }
}

export function signedOutPage(reason: SignedOutReason): string {
  const t = TEXT[reason]
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>${t.title} — Arbiter</title><style>${STYLE}</style></head>
<body>
<header>Arbiter</header>
<main data-testid="server-restarted" data-restarted="${reason === 'restarted'}" data-reason="${reason}">
<h1>${t.title}</h1>
<p>${t.lead}</p>
<p>${t.next}</p>
<p class="muted">Nothing was lost: labels are saved as they are given.</p>
</main>
</body>
</html>
`
}
