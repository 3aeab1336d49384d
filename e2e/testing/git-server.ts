import { execFile } from 'node:child_process'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { lanePort } from './lane'

/** The git HTTP server playwright.config.ts starts (test-servers/git-http-server.mjs); the port must match. */
export const GIT_SERVER_URL = `http://127.0.0.1:${lanePort(Number(process.env.TABCODE_GIT_PORT ?? 8821))}`
/** The token the server takes for a push (its default). */
export const GIT_SERVER_TOKEN = 'test-token'

let count = 0

/** A fresh, empty repository on the server; its URL. */
export async function createRepository(prefix: string): Promise<string> {
  const name = `${prefix}-${Date.now()}-${++count}`
  const response = await fetch(`${GIT_SERVER_URL}/_create/${name}`, { method: 'POST' })
  if (response.status !== 201) throw new Error(`could not create ${name}: HTTP ${response.status}`)
  return `${GIT_SERVER_URL}/${name}.git`
}

/** git on the host: the other side of the remote (someone else's checkout). */
export async function hostGit(cwd: string, ...args: string[]): Promise<string> {
  const identity = ['-c', 'user.name=Host Person', '-c', 'user.email=host@example.org']
  return (await promisify(execFile)('git', [...identity, ...args], { cwd, encoding: 'utf8' })).stdout
}

/** A checkout of the repository on the host. */
export async function hostClone(url: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tabcode-e2e-git-'))
  await hostGit(dir, 'clone', '--quiet', url, 'checkout')
  return join(dir, 'checkout')
}

/** The URL with the token in it, for the host's own pushes. */
export function withToken(url: string): string {
  return url.replace('http://', `http://user:${GIT_SERVER_TOKEN}@`)
}
