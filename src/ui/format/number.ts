// One formatter for the app: `toLocaleString` with a locale argument builds a new formatter on every call, and the
// usage line of every message in a long conversation formats five numbers.
const grouped = new Intl.NumberFormat('en-US')

/** A number with thousands separators, as `toLocaleString('en-US')` writes it: 12,345. */
export function formatNumber(value: number): string {
  return grouped.format(value)
}
