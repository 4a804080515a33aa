/** Applies the theme to `<html data-theme>` and keeps it in sync with settings and the OS. */
import { useCallback, useEffect } from 'react'
import { useSettings, useUpdateSettings } from '../api/queries'
import { useUiStore, type ThemeChoice } from '../stores/ui-store'
import { useMediaQuery } from './use-media-query'

const DARK_QUERY = '(prefers-color-scheme: dark)'

/** Whether the OS currently prefers dark. */
export function useSystemDark(): boolean {
  return useMediaQuery(DARK_QUERY)
}

/** Mounted once in the shell: mirrors the saved setting into the store and onto the document. */
export function useThemeEffect(): void {
  const theme = useUiStore((s) => s.theme)
  const setTheme = useUiStore((s) => s.setTheme)
  const settings = useSettings()
  const systemDark = useSystemDark()
  const saved = settings.data?.theme

  useEffect(() => {
    if (saved) setTheme(saved)
  }, [saved, setTheme])

  useEffect(() => {
    const effective = theme === 'system' ? (systemDark ? 'dark' : 'light') : theme
    document.documentElement.dataset.theme = effective
  }, [theme, systemDark])
}

/** Changes the theme immediately and persists it in settings. */
export function useSetTheme(): (theme: ThemeChoice) => void {
  const setTheme = useUiStore((s) => s.setTheme)
  const update = useUpdateSettings()
  const { mutate } = update
  return useCallback(
    (theme: ThemeChoice) => {
      setTheme(theme)
      mutate({ theme })
    },
    [setTheme, mutate]
  )
}

/** Flips between light and dark (from `system`, to the opposite of what is shown). */
export function useToggleTheme(): () => void {
  const setTheme = useSetTheme()
  const theme = useUiStore((s) => s.theme)
  const systemDark = useSystemDark()
  return useCallback(() => {
    const effectiveDark = theme === 'system' ? systemDark : theme === 'dark'
    setTheme(effectiveDark ? 'light' : 'dark')
  }, [setTheme, theme, systemDark])
}
