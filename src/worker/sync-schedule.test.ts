import { describe, expect, it } from 'vitest'
import { SyncServerError } from '../sync/couch'
import { SyncDecryptError, SyncPassphraseError } from '../sync/crypto'
import { classifyFailure, connectionReport, retryDelay, statusFromSetup } from './sync-schedule'
import { SyncKeyChangedError } from './sync-service'

describe("sync's retries", () => {
  it('wait 1 s after the first failure, doubling up to a minute', () => {
    expect(Array.from({ length: 9 }, (_, index) => retryDelay(index + 1))).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000])
  })
})

describe('a failed round', () => {
  it('is offline when the server cannot be reached, and retried by itself', () => {
    expect(classifyFailure(new SyncServerError('unreachable', 'Failed to fetch'))).toEqual({ type: 'offline' })
  })

  it('stops with the fix when the user must act', () => {
    const fixOf = (error: unknown) => {
      const failure = classifyFailure(error)
      if (failure.type !== 'error') throw new Error('expected an error')
      return failure
    }
    expect(fixOf(new SyncServerError('unauthorised', 'HTTP 401'))).toMatchObject({ name: 'SyncServerError', fix: expect.stringMatching(/username or password/) })
    expect(fixOf(new SyncServerError('missing', 'HTTP 404')).fix).toMatch(/database is gone/)
    expect(fixOf(new SyncPassphraseError()).fix).toMatch(/passphrase was changed/)
    expect(fixOf(new SyncKeyChangedError()).fix).toMatch(/passphrase was changed/)
    expect(fixOf(new SyncDecryptError('msg_1')).fix).toMatch(/does not open/)
    expect(fixOf(new TypeError('boom'))).toMatchObject({ name: 'TypeError', message: 'boom', fix: expect.stringMatching(/Sync now/) })
  })
})

describe('the connection test', () => {
  it("names a down server or a wrong URL and CORS, with the CouchDB settings for this page's origin", () => {
    const report = connectionReport({ type: 'unreachable', detail: 'Failed to fetch' }, 'https://tabcode.example')
    if (report.type !== 'unreachable') throw new Error('expected unreachable')
    expect(report.fix).toMatch(/not running or the URL is wrong/)
    expect(report.fix).toMatch(/CORS/)
    for (const line of ['[chttpd]', 'enable_cors = true', '[cors]', 'origins = https://tabcode.example', 'credentials = true', 'methods = GET, PUT, POST, HEAD, DELETE']) expect(report.fix).toContain(line)
    expect(report.fix).toMatch(/headers = .*authorization.*content-type/)
    expect(connectionReport({ type: 'missing', mayCreate: true }, 'https://tabcode.example')).toEqual({ type: 'missing', mayCreate: true })
  })
})

describe('the status a tab tells from the stored setup', () => {
  it('is off without a setup, paused when paused', () => {
    expect(statusFromSetup(undefined)).toEqual({ type: 'sync-status', state: 'off', pending: 0 })
    const setup = { type: 'sync-setup', url: 'http://couch.example', database: 'tabcode', secrets: false, messages: 'all', paused: true } as const
    expect(statusFromSetup(setup)).toMatchObject({ state: 'paused', setup })
  })
})
