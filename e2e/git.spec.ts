import { expect, test } from './testing/fixtures'
import { Conversation } from './page-models/conversation'
import { ModelScript, streamText, toolCalls } from './testing/model-script'

const model = new ModelScript()

test.beforeEach(async () => {
  await model.reset()
})

const bash = (id: string, command: string) => toolCalls([{ id, name: 'bash', args: { command, description: `Run ${command}` } }])

test('the model versions the project with git: init, commit, diff, commit again, log', async ({ page }) => {
  test.setTimeout(120_000)
  await model.push(
    [
      bash('init', 'git init'),
      toolCalls([{ id: 'w', name: 'write', args: { filePath: 'src/app.js', content: "console.log('one')\n" } }]),
      bash('nobody', 'git add . && git commit -m first'),
      bash('first', 'git config user.name "Ada Lovelace" && git config user.email ada@example.org && git commit -m first'),
      toolCalls([{ id: 'e', name: 'edit', args: { filePath: 'src/app.js', oldString: "'one'", newString: "'two'" } }]),
      bash('diff', 'git diff'),
      bash('second', 'git commit -am second && git log --oneline && git log -1 --format=%an'),
      streamText('Two commits are in the history.'),
    ],
    { model: 'mock-model' },
  )
  const app = new Conversation(page)
  await app.start()
  await app.send('Put the project under git and commit as you go')
  // Seven steps, the first loading the git bundle: longer than one expect's default on a busy machine.
  await expect(app.replies().last()).toContainText('Two commits are in the history.', { timeout: 60_000 })

  const runs = app.messages.getByRole('group', { name: 'Tool call: bash' })
  await expect(runs).toHaveCount(5)
  await expect(runs.nth(0)).toContainText('Initialized empty Git repository in /workspace/.git/')
  // No identity yet: git refuses, as it does on a machine without one, and says how to set it.
  await expect(runs.nth(1)).toContainText('Failed with exit code 128')
  await expect(runs.nth(1).getByRole('figure', { name: 'End of the output' })).toContainText('fatal: unable to auto-detect name')
  await expect(runs.nth(1)).toContainText('git config user.email "you@example.com"')
  await expect(runs.nth(2)).toContainText(/\[main \(root-commit\) [0-9a-f]{7}\] first/)
  await expect(runs.nth(2)).toContainText('1 file changed, 1 insertion(+)')
  await expect(runs.nth(3)).toContainText('diff --git a/src/app.js b/src/app.js')
  await expect(runs.nth(3)).toContainText("-console.log('one')")
  await expect(runs.nth(3)).toContainText("+console.log('two')")
  await expect(runs.nth(4)).toContainText(/\[main [0-9a-f]{7}\] second/)
  await expect(runs.nth(4)).toContainText(/[0-9a-f]{7} \(HEAD -> main\) second\s*[0-9a-f]{7} first/)
  await expect(runs.nth(4)).toContainText('Ada Lovelace')

  // The repository's own files are no project change: the steps' patches list only what the model wrote.
  const patches = app.messages.getByRole('group', { name: 'Changed files' })
  await expect(patches.first()).toContainText('src/app.js')
  for (const patch of await patches.all()) await expect(patch).not.toContainText('.git')
})
