/** System / Light / Dark segmented control. */
import { Monitor, Moon, Sun } from 'lucide-react'
import { useSetTheme } from '../../hooks/use-theme'
import { useUiStore, type ThemeChoice } from '../../stores/ui-store'

const OPTIONS: { value: ThemeChoice; label: string; icon: typeof Sun }[] = [
  { value: 'system', label: 'System', icon: Monitor },
  { value: 'light', label: 'Light', icon: Sun },
  { value: 'dark', label: 'Dark', icon: Moon }
]

/** Radio group that changes the theme at once and saves it in settings. */
export function ThemePicker() {
  const theme = useUiStore((s) => s.theme)
  const setTheme = useSetTheme()
  return (
    <div className="segmented" role="radiogroup" aria-label="Theme" data-testid="theme-picker">
      {OPTIONS.map((o) => {
        const Icon = o.icon
        return (
          <label key={o.value} className={`segment${theme === o.value ? ' active' : ''}`}>
            <input
              type="radio"
              name="theme"
              value={o.value}
              checked={theme === o.value}
              onChange={() => setTheme(o.value)}
              data-testid={`theme-${o.value}`}
            />
            <Icon size={14} aria-hidden />
            {o.label}
          </label>
        )
      })}
    </div>
  )
}
