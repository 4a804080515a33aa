/** Keyboard key caps for shortcut hints. */

/** Renders each key as a `<kbd>`, e.g. `<Keys keys={['g', 'o']} />`. */
export function Keys({ keys }: { keys: readonly string[] }) {
  return (
    <span className="keys">
      {keys.map((k, i) => (
        <kbd key={i}>{k}</kbd>
      ))}
    </span>
  )
}

/** "⌘" on macOS, "Ctrl" elsewhere. */
export const MOD_KEY = /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent) ? '⌘' : 'Ctrl'
