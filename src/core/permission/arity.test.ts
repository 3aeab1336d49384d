import { describe, expect, test } from 'vitest'
import { ARITY, alwaysPattern, commandPrefix, commandTokens } from './arity'

describe('ARITY', () => {
  test.each([
    ['git', 2],
    ['npm', 2],
    ['npm run', 3],
    ['docker compose', 3],
    ['ls', 1],
    ['aws', 3],
    ['git stash', 3],
    ['yarn run', 3],
  ])('%s → %i', (prefix, arity) => {
    expect(ARITY[prefix]).toBe(arity)
  })
})

describe('commandPrefix', () => {
  test.each([
    [['git', 'checkout', 'main'], ['git', 'checkout']],
    [['git', 'commit', '-m', '"x"'], ['git', 'commit']],
    [['git', 'stash', 'pop', 'stash@{1}'], ['git', 'stash', 'pop']],
    [['npm', 'install'], ['npm', 'install']],
    [['npm', 'run', 'dev', '--', '--port', '3000'], ['npm', 'run', 'dev']],
    [['docker', 'compose', 'up', '-d'], ['docker', 'compose', 'up']],
    [['docker', 'run', 'nginx'], ['docker', 'run']],
    [['ls', '-la', 'src'], ['ls']],
    [['touch', 'a.txt'], ['touch']],
    [['aws', 's3', 'ls', 's3://bucket'], ['aws', 's3', 'ls']],
    [['python', 'script.py'], ['python', 'script.py']],
    // unknown commands keep their first word
    [['node', 'server.js'], ['node']],
    [['./run.sh', '--fast'], ['./run.sh']],
    // a listed command shorter than its arity keeps what it has
    [['git'], ['git']],
    [[], []],
  ])('%j → %j', (tokens, prefix) => {
    expect(commandPrefix(tokens)).toEqual(prefix)
  })
})

describe('commandTokens', () => {
  test.each([
    ['git commit -m "fix the bug"', ['git', 'commit', '-m', '"fix the bug"']],
    ["echo 'a  b' c", ['echo', "'a  b'", 'c']],
    ['  ls   -la  ', ['ls', '-la']],
    ['NODE_ENV=test npm run test', ['npm', 'run', 'test']],
    ['echo a\\ b', ['echo', 'a\\ b']],
    ['echo "say \\"hi\\""', ['echo', '"say \\"hi\\""']],
    ['FOO=1', []],
    ['', []],
  ])('%j → %j', (line, tokens) => {
    expect(commandTokens(line)).toEqual(tokens)
  })
})

describe('alwaysPattern', () => {
  test.each([
    ['git commit -m "x"', 'git commit *'],
    ['git checkout main', 'git checkout *'],
    ['npm run dev', 'npm run dev *'],
    ['npm install left-pad', 'npm install *'],
    ['docker compose up -d', 'docker compose up *'],
    ['ls -la', 'ls *'],
    ['node index.js', 'node *'],
    ['CI=1 pnpm run build', 'pnpm run build *'],
    // never a bare "*", which would allow every command
    ['', ' *'],
  ])('%j → %j', (line, pattern) => {
    expect(alwaysPattern(line)).toBe(pattern)
  })
})
