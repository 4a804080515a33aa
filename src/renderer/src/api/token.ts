/**
 * The `muster serve` access token. The page is first opened as `/?token=XYZ`; we keep the token in
 * sessionStorage (survives reloads of this tab, not other tabs) and strip it from the address bar
 * so it does not end up in history, screenshots or copied links.
 */
const STORAGE_KEY = 'muster.token'

/** Reads the token from the URL (once, at startup) or from sessionStorage; null when absent. */
export function takeToken(): string | null {
  const url = new URL(window.location.href)
  const fromUrl = url.searchParams.get('token')
  if (fromUrl) {
    try {
      sessionStorage.setItem(STORAGE_KEY, fromUrl)
    } catch {
      // Storage can be disabled; the in-memory token still works for this page load.
    }
    url.searchParams.delete('token')
    window.history.replaceState(window.history.state, '', url.pathname + url.search + url.hash)
    return fromUrl
  }
  try {
    return sessionStorage.getItem(STORAGE_KEY)
  } catch {
    return null
  }
}
