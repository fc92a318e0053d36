import type { IncomingMessage } from 'node:http'

/**
 * What a browser NAVIGATING to the console gets without a valid login (401, never raw JSON): a
 * plain page that says what happened and what to do. A cookie for this port that no login knows
 * means this server started since the page was opened (every start draws new tokens), so the page
 * says the server restarted. It never re-authenticates by itself: only the URL the server printed
 * carries a token. Static HTML, no script and no style (the CSP refuses inline styles, and a
 * stylesheet request would itself be refused without a login): the browser's own light or dark colours.
 */
export function wantsHtml(req: IncomingMessage, pathname: string): boolean {
  if (req.method !== 'GET' || pathname.startsWith('/api/')) return false
  return String(req.headers.accept ?? '').includes('text/html')
}

export function signedOutPage(restarted: boolean): string {
  const title = restarted ? 'The Arbiter server restarted' : 'Sign in with the link the server printed'
  const lead = restarted
    ? 'The console server was restarted since this page was opened, so this browser’s sign-in is no longer valid.'
    : 'This browser is not signed in to this console server.'
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>${title}</title></head>
<body>
<main data-testid="server-restarted" data-restarted="${restarted}">
<h1>${title}</h1>
<p>${lead}</p>
<p>Open the URL that <code>arbiter serve</code> printed when it started (it carries the new token), then come back to your work: your labels are saved.</p>
</main>
</body>
</html>
`
}
