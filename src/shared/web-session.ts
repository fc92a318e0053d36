/**
 * The browser session's names the web host and the browser console share (src/main/host/web-sessions.ts
 * explains the session: a cookie to load pages, a secret kept per origin for API calls).
 */

/** The header an API call carries the session's secret in. */
export const SESSION_SECRET_HEADER = 'x-arbiter-secret'
/** The fragment key the sign-in redirect hands the secret to the page under (`/#arbiter-secret=…`). */
export const SECRET_FRAGMENT = 'arbiter-secret'
/** Where a browser session signs out: POST, with its cookie and secret like an API call. */
export const SIGN_OUT_PATH = '/session/end'
