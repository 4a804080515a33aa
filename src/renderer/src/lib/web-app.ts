/**
 * The installable app (`muster serve` in a browser): the page names the web app manifest and
 * registers the service worker (src/server/web-app.ts) once it has loaded, off the first paint.
 * Not in the desktop app (`app://`) nor the dev server.
 */

/** Names the manifest and registers the worker when served over HTTP(S). */
export function installWebApp(): void {
  if (import.meta.env.DEV || (location.protocol !== 'https:' && location.protocol !== 'http:')) return
  for (const [rel, href] of [
    ['manifest', '/manifest.webmanifest'],
    ['apple-touch-icon', '/icons/icon.png']
  ]) {
    const link = document.createElement('link')
    link.rel = rel!
    link.href = href!
    document.head.append(link)
  }
  if (!('serviceWorker' in navigator)) return
  const register = (): void =>
    void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((err: unknown) => {
      // a LAN host with a certificate the browser does not trust, a private window: the page works without it
      console.warn('Muster: the service worker could not be registered', err)
    })
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register, { once: true })
}
