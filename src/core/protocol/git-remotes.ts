/** A git command waiting for the token of a host: the page shows a dialog, the answer goes back by `id`. */
export interface GitTokenAsk {
  id: string
  /** `github.com`, `127.0.0.1:8821`: the one host the token will be sent to. */
  host: string
  /** The remote's URL, as the command named it. */
  url: string
}

/** Git's remotes: the tokens kept per host (hosts out, tokens only in) and the answers to token asks. */
export interface GitRemotesApi {
  /** The hosts a token is kept for; never the tokens. */
  listGitTokenHosts(): string[]
  removeGitToken(host: string): void
  /** The user's answer to a token ask: the token (kept once the server accepts it), or null for Cancel. */
  answerGitToken(input: { id: string; token: string | null }): void
}
