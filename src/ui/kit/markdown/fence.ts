/**
 * Whether a fenced code block's source ends with its closing fence. While a reply streams, the last block is still
 * open and changes with every delta: highlighting it would re-parse it each frame, so only closed blocks are.
 */
export function isClosedFence(raw: string): boolean {
  const opening = /^ {0,3}(`{3,}|~{3,})/.exec(raw)
  if (!opening) return false
  const fence = opening[1]!
  const lines = raw.replace(/\s+$/, '').split('\n')
  if (lines.length < 2) return false
  const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`)
  return closing.test(lines.at(-1)!)
}
