import { deflateSync } from 'fflate'
import { describe, expect, test } from 'vitest'
import { shareLinkChars100TextMessages } from './testing/benchmark'
import { deflateRaw } from './compress'
import { encodeBase64Url } from './base64url'
import { createShareLink, measureShareLink, openShareLink, parseShareToken } from './link'
import { COMFORTABLE_LINK_CHARS, MAX_LINK_CHARS } from './limits'
import { realisticTranscript } from './testing/realistic-session'
import { richTranscript } from './testing/rich-transcript'
import { withoutIds } from './testing/normalize'
import type { SessionTranscript } from './transcript'

const base = 'https://tabcode.example/app/'
/** Fewer rounds than the real default, so the encrypted cases stay quick; the format records the count used. */
const fast = { iterations: 1_000 }

function tokenOf(url: string): string {
  return url.slice(url.indexOf('#/share/') + '#/share/'.length)
}

/** A link to arbitrary JSON, made the way the app makes links, for feeding the opener bad content. */
function linkTo(value: unknown): string {
  const compressed = deflateRaw(new TextEncoder().encode(JSON.stringify(value)))
  const framed = new Uint8Array(4 + compressed.length)
  new DataView(framed.buffer).setUint32(0, compressed.length)
  framed.set(compressed, 4)
  return `${base}#/share/v1.${encodeBase64Url(framed)}`
}

describe('share links', () => {
  test('a realistic 100-message text session fits in 32,768 characters', () => {
    const transcript = realisticTranscript()
    expect(transcript.messages).toHaveLength(100)
    const chars = shareLinkChars100TextMessages()
    expect(chars).toBeLessThanOrEqual(COMFORTABLE_LINK_CHARS)
    // Recorded so a change that grows links shows up in review (25,080 when written).
    expect(chars).toBeGreaterThan(20_000)
  })

  test('the text survives a round trip exactly, with the link length the meter predicted', async () => {
    const transcript = realisticTranscript()
    const link = await createShareLink(transcript, { base })
    expect(link.url.startsWith(`${base}#/share/v1.`)).toBe(true)
    expect(link.chars).toBe(link.url.length)
    expect(measureShareLink(transcript, { base }).chars).toBe(link.chars)
    const opened = await openShareLink(link.url)
    expect(opened.encrypted).toBe(false)
    expect(opened.transcript.messages.map((message) => message.parts)).toHaveLength(100)
    const texts = (value: SessionTranscript) =>
      value.messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])))
    expect(texts(opened.transcript)).toEqual(texts(transcript))
    expect(opened.transcript.messages.map((message) => message.info.time)).toEqual(transcript.messages.map((message) => message.info.time))
    expect(opened.transcript.info.title).toBe(transcript.info.title)
  })

  test('every kind of row survives, children included, equal but for ids and what links leave out', async () => {
    const transcript = richTranscript()
    const link = await createShareLink(transcript, { base, includeToolOutput: true })
    const opened = await openShareLink(link.url)
    // Links leave out what only means something where they were made: the project, snapshots, the fork origin.
    const local = structuredClone(transcript)
    for (const message of local.messages) {
      for (const part of message.parts) if (part.type === 'step-start' || part.type === 'step-finish') delete part.snapshot
    }
    expect(withoutIds(opened.transcript)).toEqual(withoutIds(local))
    expect(opened.transcript.children?.[0]?.info.parentID).toBe(opened.transcript.info.id)
  })

  test('a passphrase link opens with the passphrase and says which error otherwise', async () => {
    const transcript = richTranscript()
    const link = await createShareLink(transcript, { base, passphrase: 'correct horse', encryption: fast })
    expect(tokenOf(link.url).startsWith('v1e.')).toBe(true)
    expect(measureShareLink(transcript, { base, encrypted: true }).chars).toBe(link.chars)
    await expect(openShareLink(link.url)).rejects.toMatchObject({ name: 'ImportPassphraseRequiredError' })
    await expect(openShareLink(link.url, { passphrase: 'wrong horse' })).rejects.toMatchObject({ name: 'ImportWrongPassphraseError' })
    const opened = await openShareLink(link.url, { passphrase: 'correct horse' })
    expect(opened.encrypted).toBe(true)
    expect(opened.transcript.messages).toHaveLength(transcript.messages.length)
  })

  test('the default key derivation is strong and still opens', async () => {
    const link = await createShareLink(realisticTranscript(), { base, passphrase: 'p' })
    const bytes = Buffer.from(tokenOf(link.url).slice('v1e.'.length), 'base64url')
    expect(bytes.readUInt32BE(28)).toBe(600_000)
    expect((await openShareLink(link.url, { passphrase: 'p' })).transcript.messages).toHaveLength(100)
  })

  test('a link cut off while copying is truncated, plain or encrypted', async () => {
    const plain = await createShareLink(richTranscript(), { base })
    const encrypted = await createShareLink(richTranscript(), { base, passphrase: 'x', encryption: fast })
    for (const cut of [plain.url.length - 1, plain.url.length - 7, plain.url.length - 300, base.length + 14]) {
      await expect(openShareLink(plain.url.slice(0, cut))).rejects.toMatchObject({ name: 'ImportTruncatedError' })
    }
    await expect(openShareLink(encrypted.url.slice(0, -20), { passphrase: 'x' })).rejects.toMatchObject({ name: 'ImportTruncatedError' })
  })

  test('damaged links are corrupt, each with its own message', async () => {
    const plain = await createShareLink(richTranscript(), { base })
    const token = tokenOf(plain.url)
    const damaged = token.slice(0, 60) + (token[60] === 'A' ? 'B' : 'A').repeat(30) + token.slice(90)
    await expect(openShareLink(damaged)).rejects.toMatchObject({ name: 'ImportCorruptError' })
    await expect(openShareLink('v1.not*base64')).rejects.toMatchObject({ name: 'ImportCorruptError' })
    await expect(openShareLink('https://example.com/#/elsewhere')).rejects.toMatchObject({ name: 'ImportCorruptError' })
    await expect(openShareLink(`${plain.url}AAAA`)).rejects.toMatchObject({ name: 'ImportCorruptError' })
  })

  test('a link from a newer tabcode says so', async () => {
    await expect(openShareLink(`${base}#/share/v2.AAAA`)).rejects.toMatchObject({ name: 'ImportNewerVersionError', data: { version: 2, supported: 1 } })
    await expect(openShareLink('v7e.AAAA', { passphrase: 'x' })).rejects.toMatchObject({ name: 'ImportNewerVersionError' })
  })

  test('content that decodes but is not a session is invalid', async () => {
    await expect(openShareLink(linkTo({ hello: 'world' }))).rejects.toMatchObject({ name: 'ImportInvalidError' })
    await expect(openShareLink(linkTo([1, 2, 3]))).rejects.toMatchObject({ name: 'ImportInvalidError' })
    let deep: unknown = 'bottom'
    for (let depth = 0; depth < 200; depth++) deep = [deep]
    await expect(openShareLink(linkTo({ s: { title: deep }, m: [] }))).rejects.toMatchObject({ name: 'ImportInvalidError' })
  })

  test('a bomb in a link is refused at the cap', async () => {
    // Level 1: level 9 spends seconds searching the same run of zeros.
    const compressed = deflateSync(new Uint8Array(40 * 1024 * 1024), { level: 1 })
    const framed = new Uint8Array(4 + compressed.length)
    new DataView(framed.buffer).setUint32(0, compressed.length)
    framed.set(compressed, 4)
    await expect(openShareLink(`v1.${encodeBase64Url(framed)}`)).rejects.toMatchObject({ name: 'ImportTooLargeError' })
  })

  test('links over 512 K characters are refused when made and when opened', async () => {
    const transcript = realisticTranscript()
    // Incompressible tool output, shared whole, pushes the link past the limit.
    let noise = ''
    let seed = 1
    while (noise.length < 600_000) {
      seed = (seed * 1103515245 + 12345) % 2147483648
      noise += seed.toString(36)
    }
    const message = transcript.messages[1]!
    message.parts.push({
      id: 'prt_noise',
      sessionID: transcript.info.id,
      messageID: message.info.id,
      type: 'tool',
      callID: 'call_noise',
      tool: 'bash',
      state: { status: 'completed', input: {}, output: noise, title: 'noise', metadata: {}, time: { start: 1, end: 2 } },
    })
    const measured = measureShareLink(transcript, { base, includeToolOutput: true })
    expect(measured.chars).toBeGreaterThan(MAX_LINK_CHARS)
    await expect(createShareLink(transcript, { base, includeToolOutput: true })).rejects.toMatchObject({
      name: 'ShareTooLongError',
      message: expect.stringContaining('Export it as a file'),
    })
    // Shortened (the default), the same session shares fine.
    expect((await createShareLink(transcript, { base })).chars).toBeLessThan(COMFORTABLE_LINK_CHARS)
    await expect(openShareLink(`v1.${'A'.repeat(MAX_LINK_CHARS + 10)}`)).rejects.toMatchObject({ name: 'ImportTooLargeError' })
  })

  test('the token is found in a URL, a fragment or alone, whitespace and all', () => {
    expect(parseShareToken(`${base}#/share/v1.abc`).payload).toBe('abc')
    expect(parseShareToken('#/share/v1e.abc').encrypted).toBe(true)
    expect(parseShareToken(' v1.ab\n c ').payload).toBe('abc')
  })

  test('opening the same link twice gives the same hash; another link another', async () => {
    const link = await createShareLink(richTranscript(), { base })
    const other = await createShareLink(realisticTranscript(), { base })
    const [first, second, third] = await Promise.all([openShareLink(link.url), openShareLink(`\n${link.url} `), openShareLink(other.url)])
    expect(first.hash).toBe(second.hash)
    expect(first.hash).not.toBe(third.hash)
  })
})
