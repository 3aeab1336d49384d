import { createSignal, type Accessor } from 'solid-js'

/**
 * Light, dark, or whatever the system says. The choice is the page's own (it changes no stored data and must apply
 * before the worker has answered, to avoid a flash of the wrong theme), so it lives in localStorage; index.html
 * reads the same key before the first paint. The page always carries the resolved theme as `data-theme` on
 * <html>, which is what every palette (base, markdown, code) and `color-scheme` (native controls) follow.
 */
export type ThemeChoice = 'system' | 'light' | 'dark'
export type Theme = 'light' | 'dark'

export const THEME_KEY = 'tabcode.theme'
const ORDER: readonly ThemeChoice[] = ['system', 'light', 'dark']

export function parseThemeChoice(value: string | null | undefined): ThemeChoice {
  return value === 'light' || value === 'dark' ? value : 'system'
}

export function resolveTheme(choice: ThemeChoice, systemDark: boolean): Theme {
  return choice === 'system' ? (systemDark ? 'dark' : 'light') : choice
}

/** The choice after this one, for a single button that cycles through them. */
export function nextThemeChoice(choice: ThemeChoice): ThemeChoice {
  return ORDER[(ORDER.indexOf(choice) + 1) % ORDER.length]!
}

export interface ThemeControl {
  choice: Accessor<ThemeChoice>
  theme: Accessor<Theme>
  choose(choice: ThemeChoice): void
}

function readChoice(): ThemeChoice {
  try {
    return parseThemeChoice(localStorage.getItem(THEME_KEY))
  } catch {
    // Storage can be refused (a privacy mode): the system's theme then.
    return 'system'
  }
}

let control: ThemeControl | undefined

/** The page's one theme control: applies the stored choice now and follows the system while it is "system". */
export function themeControl(): ThemeControl {
  if (control) return control
  const media = matchMedia('(prefers-color-scheme: dark)')
  const [choice, setChoice] = createSignal(readChoice())
  const [theme, setTheme] = createSignal(resolveTheme(choice(), media.matches))
  const apply = () => {
    const next = resolveTheme(choice(), media.matches)
    setTheme(next)
    document.documentElement.dataset.theme = next
  }
  media.addEventListener('change', apply)
  apply()
  control = {
    choice,
    theme,
    choose(next) {
      setChoice(next)
      try {
        if (next === 'system') localStorage.removeItem(THEME_KEY)
        else localStorage.setItem(THEME_KEY, next)
      } catch {
        // Not kept across reloads; applied for now all the same.
      }
      apply()
    },
  }
  return control
}
