import { describe, expect, it } from 'vitest'
import { findMentions, resolveMentions } from './prompt-mentions'
import { makeToolContext } from '../tools/testing/tool-context'

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])

function sources(seed: Record<string, string>) {
  return { workspace: makeToolContext({ seed }).workspace, subagents: ['general', 'explore'], sessionID: 'ses_1' }
}

describe('prompt mentions', () => {
  it('finds mentions where they were typed, but not inside an address', () => {
    expect(findMentions('look at @src/a.ts and (@general) then @src/a.ts; mail me@example.com')).toEqual([
      { token: 'src/a.ts', start: 8, end: 17 },
      { token: 'general)', start: 23, end: 32 },
      { token: 'src/a.ts;', start: 38, end: 48 },
    ])
  })

  it('sends a mentioned file as the read tool gives it, then the file part naming where it was typed', async () => {
    const typed = 'explain @src/a.ts. Then @src/a.ts again'
    const parts = await resolveMentions([{ type: 'text', text: typed }], sources({ 'src/a.ts': 'const a = 1\n' }))
    expect(parts).toEqual([
      { type: 'text', text: typed },
      { type: 'text', synthetic: true, text: 'Called the Read tool with the following input: {"filePath":"/workspace/src/a.ts"}' },
      { type: 'text', synthetic: true, text: expect.stringContaining('1: const a = 1') },
      {
        type: 'file',
        mime: 'text/plain',
        filename: 'a.ts',
        url: 'file:///workspace/src/a.ts',
        source: { type: 'file', path: '/workspace/src/a.ts', text: { value: '@src/a.ts', start: 8, end: 17 } },
      },
    ])
  })

  it('sends a folder as its listing and an image as its bytes', async () => {
    const project = sources({ 'src/a.ts': 'x' })
    await project.workspace.writeFile('/workspace/logo.png', PNG)
    const parts = await resolveMentions([{ type: 'text', text: '@src @logo.png' }], project)
    expect(parts[2]).toMatchObject({ type: 'text', text: expect.stringContaining('<type>directory</type>') })
    expect(parts[3]).toMatchObject({ type: 'file', mime: 'application/x-directory', url: 'file:///workspace/src' })
    expect(parts[6]).toMatchObject({ type: 'file', mime: 'image/png', url: expect.stringMatching(/^data:image\/png;base64,/) })
  })

  it('calls a mentioned subagent through the task tool, and leaves what names nothing as text', async () => {
    const parts = await resolveMentions([{ type: 'text', text: 'ask @general about @nothing' }], sources({}))
    expect(parts).toEqual([
      { type: 'text', text: 'ask @general about @nothing' },
      { type: 'agent', name: 'general', source: { value: '@general', start: 4, end: 12 } },
      { type: 'text', synthetic: true, text: expect.stringContaining('subagent: general') },
    ])
  })
})
