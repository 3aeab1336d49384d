import { z } from 'zod'
import type { StoreContext } from './context'
import type { TabcodeDatabase } from './database'
import { write } from './transaction'

/**
 * Git tokens by host, in one settings row: like provider keys they stay in this browser's database (settings are
 * never in exports, backups or share links), only the worker reads them, and the page only ever sees the hosts.
 */
const TOKENS_KEY = 'git.tokens'

const TokensSchema = z.record(z.string(), z.string())

async function tokensIn(db: TabcodeDatabase): Promise<Record<string, string>> {
  const parsed = TokensSchema.safeParse((await db.settings.get(TOKENS_KEY))?.value)
  return parsed.success ? parsed.data : {}
}

/** The hosts a token is kept for, sorted: what Settings lists (never the tokens). */
export async function listGitTokenHosts(context: Pick<StoreContext, 'db'>): Promise<string[]> {
  return Object.keys(await tokensIn(context.db)).sort()
}

/** A host's token, for git's auth callback only. */
export async function loadGitToken(context: Pick<StoreContext, 'db'>, host: string): Promise<string | undefined> {
  return (await tokensIn(context.db))[host]
}

export async function saveGitToken(context: Pick<StoreContext, 'db'>, host: string, token: string): Promise<void> {
  const { db } = context
  await write(context, [db.settings], async () => {
    await db.settings.put({ key: TOKENS_KEY, value: { ...(await tokensIn(db)), [host]: token } })
  })
}

export async function forgetGitToken(context: Pick<StoreContext, 'db'>, host: string): Promise<void> {
  const { db } = context
  await write(context, [db.settings], async () => {
    const { [host]: _gone, ...kept } = await tokensIn(db)
    await db.settings.put({ key: TOKENS_KEY, value: kept })
  })
}
