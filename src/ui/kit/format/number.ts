// One formatter for the app, made on first need: `toLocaleString` with a locale argument builds a new formatter on
// every call (the usage line of every message formats five numbers), and the first `Intl.NumberFormat` of a page
// loads its locale data, 20–30 ms that made part of a first visit's longest task (issue 18) when it was made at load.
let grouped: Intl.NumberFormat | undefined

/** A number with thousands separators, as `toLocaleString('en-US')` writes it: 12,345. */
export function formatNumber(value: number): string {
  // Integers are most of what the app shows (counts, tokens, sizes): grouping them by hand gives the same text
  // without ever loading the locale data.
  if (Number.isSafeInteger(value)) return groupDigits(value)
  return (grouped ??= new Intl.NumberFormat('en-US')).format(value)
}

function groupDigits(value: number): string {
  const digits = String(Math.abs(value))
  let out = ''
  for (let end = digits.length; end > 0; end -= 3) out = (end > 3 ? ',' : '') + digits.slice(Math.max(0, end - 3), end) + out
  return value < 0 ? `-${out}` : out
}
