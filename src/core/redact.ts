/**
 * Secret redaction, shared by everything that shows, stores, logs or shares text: the console (core/log.ts), stored
 * and shown provider errors (provider/connection.ts) and exports and share links (share/redact.ts).
 */

/**
 * Removes secrets from text that may be shown or stored: the given keys verbatim and URL-encoded, and anything in
 * the places keys travel (Authorization, x-api-key, x-goog-api-key, `key=`), in case a server echoes a request back.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let clean = text
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue
    for (const form of new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])) {
      clean = clean.split(form).join('[redacted]')
    }
  }
  return clean
    .replace(/\b(Bearer|Basic)\s+(?!\[redacted\])[^\s"',;}]+/gi, '$1 [redacted]')
    .replace(/\b(x-api-key|x-goog-api-key|api[-_]?key)(["']?\s*[:=]\s*["']?)(?!\[redacted\])[^\s"',;&}]+/gi, '$1$2[redacted]')
    .replace(/([?&]key=)(?!\[redacted\])[^&\s"']+/gi, '$1[redacted]')
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
