import { describe, expect, it } from 'vitest'
import { policyProblem } from './worker-policy'

const POLICY = "default-src 'none'; connect-src 'self'"

describe('whether Python may start under the worker’s policy', () => {
  it('starts only when both scripts and connections beyond the site are refused', () => {
    expect(policyProblem({ scripts: 'refused', connections: 'refused' }, POLICY)).toBeUndefined()
  })

  it('refuses with the header to send when either is open, naming what is open', () => {
    expect(policyProblem({ scripts: 'loaded', connections: 'made' }, POLICY)).toContain('may load scripts and connect beyond this site')
    // A server whose policy governs scripts only (no connect-src, no default-src) still leaves fetch open.
    const connections = policyProblem({ scripts: 'refused', connections: 'made' }, POLICY)!
    expect(connections).toContain('may connect beyond this site')
    expect(connections).toContain(`with the header Content-Security-Policy: ${POLICY} `)
    expect(connections).toContain('assets/python.worker-*.js')
    expect(policyProblem({ scripts: 'loaded', connections: 'refused' }, POLICY)).toContain('may load scripts beyond this site')
  })
})
