/**
 * The session and its subagents' sessions, at any depth. A subagent's turn runs inside its caller's, so its
 * questions are answered where the caller is shown; otherwise the turn would wait on a question nobody sees.
 */
export function sessionFamily(children: Readonly<Record<string, readonly string[]>>, sessionID: string): Set<string> {
  const family = new Set([sessionID])
  for (const id of family) for (const child of children[id] ?? []) family.add(child)
  return family
}
