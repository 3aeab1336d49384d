import { describe, expect, test } from 'vitest'
import { prepareForSharing } from './prepare'
import { redactText, redactTranscript } from './redact'
import { richTranscript } from './testing/rich-transcript'

const SECRETS = {
  openai: 'sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z',
  anthropic: 'sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe',
  google: 'AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q',
  groq: 'gsk_4Fh7Jk2Lm9Np3Qr6St8Vw1Xy5Za0Bc',
  github: 'ghp_1234567890abcdefghijABCDEFGHIJ123456',
  bearer: 'eyJhbGciOi.JIUzI1NiJ9xyz12345',
  urlKey: 'Q9w8E7r6T5y4U3i2',
}

describe('redaction', () => {
  test('finds the common key shapes and names them', () => {
    const text = [
      `OPENAI_API_KEY=${SECRETS.openai}`,
      `anthropic: ${SECRETS.anthropic}`,
      `https://generativelanguage.googleapis.com/v1/models?key=${SECRETS.google}`,
      `export GROQ=${SECRETS.groq}`,
      `git push https://${SECRETS.github}@github.com/me/repo`,
      `curl -H "Authorization: Bearer ${SECRETS.bearer}"`,
      `fetch("https://api.example.com/data?api_key=${SECRETS.urlKey}&page=2")`,
      'postgres://admin:hunter22@db.internal/prod',
      'AWS AKIAIOSFODNN7EXAMPLE',
    ].join('\n')
    const { text: clean, found } = redactText(text)
    for (const secret of [...Object.values(SECRETS), 'hunter22', 'AKIAIOSFODNN7EXAMPLE']) expect(clean).not.toContain(secret)
    expect(found.map((item) => item.kind)).toEqual(
      expect.arrayContaining(['OpenAI key', 'Anthropic key', 'Google key', 'Groq key', 'GitHub token', 'bearer token', 'key in a URL', 'password in a URL', 'AWS access key']),
    )
    // The rest of the text is left as it was.
    expect(clean).toContain('curl -H "Authorization: Bearer [redacted bearer token]"')
    expect(clean).toContain('&page=2')
    // The hint recognises the key without revealing it.
    expect(found.find((item) => item.kind === 'OpenAI key')?.hint).toBe('sk-p… (40 characters)')
  })

  test('leaves ordinary prose and code alone', () => {
    const text = 'const token = getToken(); // the skeleton task-list uses sk-style names\nexport const PAGE_SIZE = 50'
    expect(redactText(text)).toEqual({ text, found: [] })
  })

  test('stored keys are removed whatever they look like', () => {
    const { text, found } = redactText('my key is plainpassword123, really', ['plainpassword123'])
    expect(text).toBe('my key is [redacted stored provider key], really')
    expect(found).toHaveLength(1)
  })

  test('keys go from every field of every session, and the preview says where', () => {
    const transcript = richTranscript()
    transcript.info.title = `Debug ${SECRETS.openai}`
    const assistant = transcript.messages[1]!
    const tool = assistant.parts.find((part) => part.type === 'tool' && part.state.status === 'completed')!
    if (tool.type !== 'tool' || tool.state.status !== 'completed') throw new Error('fixture changed')
    tool.state.input = { command: `curl -H "x-api-key: ${SECRETS.anthropic}" https://api.anthropic.com` }
    tool.state.output = `{"key": "${SECRETS.google}"}`
    tool.state.metadata = { [SECRETS.groq]: 'as a record key', env: { GITHUB_TOKEN: SECRETS.github } }
    const child = transcript.children![0]!
    const childText = child.messages[1]!.parts[0]!
    if (childText.type !== 'text') throw new Error('fixture changed')
    childText.text = `found ${SECRETS.openai} in .env`

    const { transcript: clean, redactions } = redactTranscript(transcript)
    const json = JSON.stringify(clean)
    for (const secret of [SECRETS.openai, SECRETS.anthropic, SECRETS.google, SECRETS.groq, SECRETS.github]) expect(json).not.toContain(secret)
    expect(JSON.stringify(redactions)).not.toContain(SECRETS.openai.slice(5))
    const where = redactions.map((item) => item.where)
    expect(where).toEqual(
      expect.arrayContaining([
        'Session title',
        'Message 2 (assistant) · tool "bash" · state.input.command',
        'Message 2 (assistant) · tool "bash" · state.output',
        `Message 2 (assistant) · tool "bash" · state.metadata.${SECRETS.groq}`,
        'Child session 1 · Message 2 (assistant) · text part · text',
      ]),
    )
    // The original is untouched: redaction works on a copy.
    expect(transcript.info.title).toContain(SECRETS.openai)
  })
})

describe('tool output shortening', () => {
  test('outputs and bulky metadata are cut to 200 characters by default, with a note', () => {
    const transcript = richTranscript()
    const { transcript: shared, shortened } = prepareForSharing(transcript)
    const tool = shared.messages[1]!.parts.find((part) => part.type === 'tool' && part.state.status === 'completed')!
    if (tool.type !== 'tool' || tool.state.status !== 'completed') throw new Error('fixture changed')
    expect(tool.state.output.startsWith(tool.state.output.slice(0, 200))).toBe(true)
    expect(tool.state.output).toMatch(/^[\s\S]{200}… \[[\d,]+ more characters not shared\]$/)
    expect(tool.state.metadata.preview).toMatch(/more characters not shared/)
    expect(tool.state.metadata.exit).toBe(1)
    expect(tool.state.attachments).toBeUndefined()
    expect(shortened).toBe(3)
    // Text the user and the model wrote is never shortened.
    expect(shared.messages[0]!.parts).toEqual(transcript.messages[0]!.parts)
  })

  test('the user can include outputs whole, or pick another length', () => {
    const transcript = richTranscript()
    const whole = prepareForSharing(transcript, { includeToolOutput: true })
    expect(whole.shortened).toBe(0)
    expect(whole.transcript.messages[1]!.parts).toEqual(transcript.messages[1]!.parts)
    const longer = prepareForSharing(transcript, { toolOutputChars: 1000 })
    const tool = longer.transcript.messages[1]!.parts.find((part) => part.type === 'tool' && part.state.status === 'completed')
    if (tool?.type !== 'tool' || tool.state.status !== 'completed') throw new Error('fixture changed')
    expect(tool.state.output.length).toBeGreaterThan(1000)
    expect(tool.state.output.length).toBeLessThan(1100)
  })

  test('secrets are redacted before the cut, so no half key survives it', () => {
    const transcript = richTranscript()
    const tool = transcript.messages[1]!.parts.find((part) => part.type === 'tool' && part.state.status === 'completed')!
    if (tool.type !== 'tool' || tool.state.status !== 'completed') throw new Error('fixture changed')
    tool.state.output = 'x'.repeat(184) + ' ' + SECRETS.openai + ' ' + 'y'.repeat(300)
    const { transcript: shared, redactions } = prepareForSharing(transcript)
    expect(JSON.stringify(shared)).not.toContain(SECRETS.openai.slice(0, 12))
    expect(redactions).toHaveLength(1)
  })
})
