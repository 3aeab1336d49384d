import type { SessionTranscript } from './transcript'

/** One secret taken out before sharing: what it looked like and where it was, never the secret itself. */
export interface Redaction {
  kind: string
  /** Where, for a person: `Message 4 (assistant) · tool "bash" · output`. */
  where: string
  /** Where, for code: the path from the transcript root. */
  path: (string | number)[]
  /** At most the first four characters and the length, enough to recognise which key it was. */
  hint: string
}

interface SecretPattern {
  kind: string
  pattern: RegExp
  /** The capture group that is the secret itself (0: the whole match). */
  group: number
}

/**
 * What a secret looks like. Deliberately broad: a false positive costs a `[redacted]` in a shared transcript, a
 * false negative leaks a key. Longer, more specific prefixes come first so the preview names the right provider.
 */
const PATTERNS: SecretPattern[] = [
  { kind: 'private key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, group: 0 },
  { kind: 'Anthropic key', pattern: /\bsk-ant-[A-Za-z0-9_-]{16,}/g, group: 0 },
  { kind: 'OpenRouter key', pattern: /\bsk-or-[A-Za-z0-9_-]{16,}/g, group: 0 },
  { kind: 'OpenAI key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,}/g, group: 0 },
  { kind: 'Google key', pattern: /\bAIza[0-9A-Za-z_-]{30,}/g, group: 0 },
  { kind: 'Groq key', pattern: /\bgsk_[A-Za-z0-9]{16,}/g, group: 0 },
  { kind: 'xAI key', pattern: /\bxai-[A-Za-z0-9]{16,}/g, group: 0 },
  { kind: 'Hugging Face token', pattern: /\bhf_[A-Za-z0-9]{20,}/g, group: 0 },
  { kind: 'GitHub token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g, group: 0 },
  { kind: 'GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g, group: 0 },
  { kind: 'Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, group: 0 },
  { kind: 'Stripe key', pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}/g, group: 0 },
  { kind: 'AWS access key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, group: 0 },
  { kind: 'JSON Web Token', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, group: 0 },
  { kind: 'bearer token', pattern: /\bBearer\s+([A-Za-z0-9._~+/=-]{12,})/gi, group: 1 },
  {
    kind: 'key header',
    pattern: /\b(?:x-api-key|api-key|x-goog-api-key|authorization)["']?\s*[:=]\s*["']?(?!Bearer\b)([^\s"',;}]{12,})/gi,
    group: 1,
  },
  {
    kind: 'key in a URL',
    pattern: /[?&#](?:key|api[_-]?key|apikey|access[_-]?token|token|auth|secret|password|passwd|sig|signature|client[_-]secret)=([^&#\s"'<>]{6,})/gi,
    group: 1,
  },
  { kind: 'password in a URL', pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:([^\s/@]{3,})@/gi, group: 1 },
  {
    kind: 'secret variable',
    pattern: /\b[A-Z][A-Z0-9_]*(?:API_KEY|APIKEY|SECRET|TOKEN|PASSWORD|PASSWD|PRIVATE_KEY)[A-Z0-9_]*["']?\s*[:=]\s*["']?([^\s"'`]{8,})/g,
    group: 1,
  },
]

export function redactionMarker(kind: string): string {
  return `[redacted ${kind}]`
}

function hintOf(secret: string): string {
  return `${secret.slice(0, 4)}… (${secret.length} characters)`
}

/**
 * The text with every secret replaced by a marker, and what was found. `known` are exact secrets (the user's
 * stored provider keys), redacted wherever they appear whatever they look like.
 */
export function redactText(text: string, known: readonly string[] = []): { text: string; found: { kind: string; hint: string }[] } {
  const found: { kind: string; hint: string }[] = []
  let result = text
  for (const secret of known) {
    if (secret.length < 8 || !result.includes(secret)) continue
    found.push({ kind: 'stored provider key', hint: hintOf(secret) })
    result = result.split(secret).join(redactionMarker('stored provider key'))
  }
  for (const { kind, pattern, group } of PATTERNS) {
    pattern.lastIndex = 0
    if (!pattern.test(result)) continue
    pattern.lastIndex = 0
    result = result.replace(pattern, (match: string, ...groups: unknown[]) => {
      const secret = group === 0 ? match : (groups[group - 1] as string | undefined)
      if (!secret || secret.startsWith('[redacted')) return match
      found.push({ kind, hint: hintOf(secret) })
      return group === 0 ? redactionMarker(kind) : match.replace(secret, redactionMarker(kind))
    })
  }
  return { text: result, found }
}

/** Human wording for a path into a transcript. */
export function describePath(transcript: SessionTranscript, path: readonly (string | number)[]): string {
  const words: string[] = []
  let node: SessionTranscript | undefined = transcript
  let index = 0
  while (path[index] === 'children' && node) {
    const child = path[index + 1] as number
    node = node.children?.[child]
    words.push(`Child session ${child + 1}`)
    index += 2
  }
  if (path[index] === 'info') {
    words.push(`Session ${path.slice(index + 1).join('.')}`)
    return words.join(' · ')
  }
  if (path[index] === 'messages' && node) {
    const messageIndex = path[index + 1] as number
    const message = node.messages[messageIndex]
    words.push(`Message ${messageIndex + 1}${message ? ` (${message.info.role})` : ''}`)
    if (path[index + 2] === 'parts') {
      const part = message?.parts[path[index + 3] as number]
      words.push(part?.type === 'tool' ? `tool "${part.tool}"` : `${part?.type ?? 'part'} part`)
      const rest = path.slice(index + 4)
      if (rest.length) words.push(rest.join('.'))
    } else {
      words.push(path.slice(index + 2).join('.'))
    }
  }
  return words.join(' · ')
}

/** A copy of any JSON value with secrets redacted in every string and every key, and where each one was. */
export function redactValue<T>(
  value: T,
  known: readonly string[] = [],
): { value: T; found: { kind: string; hint: string; path: (string | number)[] }[] } {
  const found: { kind: string; hint: string; path: (string | number)[] }[] = []
  const visit = (current: unknown, path: (string | number)[]): unknown => {
    if (typeof current === 'string') {
      const { text, found: here } = redactText(current, known)
      for (const item of here) found.push({ ...item, path })
      return text
    }
    if (Array.isArray(current)) return current.map((item, index) => visit(item, [...path, index]))
    if (current && typeof current === 'object') {
      const out: Record<string, unknown> = {}
      for (const [key, item] of Object.entries(current)) {
        const { text: cleanKey, found: here } = redactText(key, known)
        for (const entry of here) found.push({ ...entry, path: [...path, key] })
        out[cleanKey] = visit(item, [...path, key])
      }
      return out
    }
    return current
  }
  return { value: visit(value, []) as T, found }
}

/**
 * A copy of the transcript with secrets redacted in every string (keys of free-form records included), and the
 * list of what was taken out, for the preview the user sees before sharing.
 */
export function redactTranscript(
  transcript: SessionTranscript,
  known: readonly string[] = [],
): { transcript: SessionTranscript; redactions: Redaction[] } {
  const { value, found } = redactValue(transcript, known)
  return { transcript: value, redactions: found.map((item) => ({ ...item, where: describePath(transcript, item.path) })) }
}
