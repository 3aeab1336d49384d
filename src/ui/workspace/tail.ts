/** The last `maxLines` lines of `text`, and how many came before them. */
export function truncateTail(text: string, maxLines: number): { text: string; hidden: number } {
  // A final newline ends the last line; it does not start another.
  let index = text.endsWith('\n') ? text.length - 1 : text.length
  // Count from the end so a huge log is not split into an array of every line.
  for (let lines = 0; lines < maxLines; lines++) {
    const previous = index > 0 ? text.lastIndexOf('\n', index - 1) : -1
    if (previous === -1) return { text, hidden: 0 }
    index = previous
  }
  const hidden = text.slice(0, index).split('\n').length
  return { text: text.slice(index + 1), hidden }
}
