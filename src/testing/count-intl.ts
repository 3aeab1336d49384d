/**
 * Runs `run` while counting how many `Intl.<kind>` formatters are constructed, then puts the real constructor back.
 * The first formatter of a page loads its locale data (tens of ms on a first visit), so tests pin where none is made.
 */
export async function countIntlFormatters<T>(kind: 'NumberFormat' | 'DateTimeFormat', run: () => T | Promise<T>): Promise<{ made: number; result: T }> {
  const original = Intl[kind]
  let made = 0
  const Counting = class extends (original as typeof Intl.NumberFormat) {
    constructor(...args: ConstructorParameters<typeof Intl.NumberFormat>) {
      super(...args)
      made++
    }
  }
  ;(Intl as Record<string, unknown>)[kind] = Counting
  try {
    const result = await run()
    return { made, result }
  } finally {
    ;(Intl as Record<string, unknown>)[kind] = original
  }
}
