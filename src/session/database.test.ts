import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { SCHEMA_VERSION, TabcodeDatabase } from './database'

describe('database schema', () => {
  // If this test fails you changed what is stored in users' browsers. Add a new version step with an upgrade and
  // an upgrade test instead of editing an existing one, then extend this snapshot.
  it('is pinned at version 1', async () => {
    const db = new TabcodeDatabase(`schema-${crypto.randomUUID()}`)
    await db.open()
    expect(SCHEMA_VERSION).toBe(1)
    expect(db.verno).toBe(1)
    const shape = db.tables
      .map((table) => ({
        name: table.name,
        primaryKey: table.schema.primKey.src,
        indexes: table.schema.indexes.map((index) => index.src).sort(),
      }))
      .sort((a, b) => a.name.localeCompare(b.name))
    expect(shape).toEqual([
      { name: 'messages', primaryKey: 'id', indexes: ['[sessionID+time.created+id]'] },
      { name: 'parts', primaryKey: 'id', indexes: ['messageID', 'sessionID'] },
      { name: 'projects', primaryKey: 'id', indexes: ['time.updated'] },
      { name: 'sessions', primaryKey: 'id', indexes: ['[projectID+time.updated+id]', '[time.updated+id]', 'parentID'] },
    ])
    db.close()
  })
})
