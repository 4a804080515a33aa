/**
 * `react-style-singleton` without `<style>` elements (the build aliases the package to this file,
 * see electron.vite.config.ts). The command palette's dialog (cmdk, Radix) locks the page's scroll
 * with a few rules that the package injects as a `<style>` element, which the app's CSP
 * (`style-src 'self'`, no `'unsafe-inline'`) refuses. Here the same rules go into a constructed
 * stylesheet adopted by the document: CSSOM, which CSP does not govern, so the scroll lock still
 * works and the policy stays strict. Same API and reference counting as the package.
 */
import { useEffect } from 'react'

/** A shared stylesheet that exists while at least one user holds it. */
export interface StyleSheetSingleton {
  add(css: string): void
  remove(): void
}

/** Counts users; the first one's CSS is adopted, the last one's removal drops it. */
export const stylesheetSingleton = (): StyleSheetSingleton => {
  let counter = 0
  let sheet: CSSStyleSheet | null = null
  return {
    add(css) {
      if (counter === 0 && typeof document !== 'undefined') {
        sheet = new CSSStyleSheet()
        sheet.replaceSync(css)
        document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
      }
      counter++
    },
    remove() {
      counter--
      if (counter === 0 && sheet) {
        const gone = sheet
        document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== gone)
        sheet = null
      }
    }
  }
}

/** A hook that holds the stylesheet while the calling component is mounted. */
export const styleHookSingleton = (): ((styles: string, isDynamic?: boolean) => void) => {
  const sheet = stylesheetSingleton()
  return (styles, isDynamic) => {
    useEffect(() => {
      sheet.add(styles)
      return () => sheet.remove()
      // Same dependency as the package: static styles are set once, dynamic ones follow `styles`.
      // eslint-disable-next-line react-hooks/exhaustive-deps
    }, [styles && isDynamic])
  }
}

/** A component that holds the stylesheet while mounted (renders nothing). */
export const styleSingleton = (): ((props: { styles: string; dynamic?: boolean }) => null) => {
  const useStyle = styleHookSingleton()
  return function Sheet({ styles, dynamic }) {
    useStyle(styles, dynamic)
    return null
  }
}
