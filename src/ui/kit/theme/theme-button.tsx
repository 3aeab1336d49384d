import type { JSX } from 'solid-js'
import { nextThemeChoice, themeControl, type ThemeChoice } from './theme'

const WORDS: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' }

/** One button that cycles the theme: system, light, dark. Its name says the current choice, and pressing says the next. */
export function ThemeButton(): JSX.Element {
  const theme = themeControl()
  return (
    <button
      type="button"
      class="button button-quiet button-small"
      aria-label={`Theme: ${WORDS[theme.choice()]}`}
      title={`Switch to ${WORDS[nextThemeChoice(theme.choice())].toLowerCase()} theme`}
      onClick={() => theme.choose(nextThemeChoice(theme.choice()))}
    >
      <span aria-hidden="true">{theme.theme() === 'dark' ? '☾' : '☀'}</span>
      {WORDS[theme.choice()]}
    </button>
  )
}
