import Dexie, { type EntityTable } from 'dexie'
import type { ProviderConfig } from '../core/provider/schema'
import type {
  Approval,
  Blob,
  InboxEntry,
  Message,
  Part,
  PermissionAsk,
  Project,
  ProjectFolder,
  SearchBackfill,
  SearchIndexRow,
  SessionInfo,
  Setting,
  Snapshot,
  TodoList,
  ToolOutput,
  WorkspaceEntry,
} from '../core/schema'
import type { SyncDoc, SyncMeta, SyncOutboxEntry } from '../core/sync-state'
import { addProjectTrust } from './project-trust-upgrade'
import { META_STORE, searchIndexMiddleware } from './search-index'
import { OUTBOX_MARK, syncOutboxMiddleware, watchOutboxSwitch, type OutboxSwitch } from './sync-outbox'

/**
 * WARNING: the database name and every store definition below are persisted in users' browsers. Changing a
 * store's key or indexes needs a new `version(n)` step with an upgrade and a test from the previous version;
 * `database.test.ts` pins the schema so an accidental edit fails.
 */
export const DATABASE_NAME = 'tabcode'

export const SCHEMA_VERSIONS = {
  1: {
    projects: 'id, time.updated',
    // [projectID+time.updated+id]: a project's sessions by last update with a stable tie-break for paging;
    // parentID: children of a session (rows without a parent are left out of that index).
    sessions: 'id, [projectID+time.updated+id], [time.updated+id], parentID',
    // [sessionID+time.created+id]: page a session's messages newest first.
    messages: 'id, [sessionID+time.created+id]',
    // messageID: the parts of a page of messages in one anyOf; sessionID: cascading deletes.
    parts: 'id, messageID, sessionID',
  },
  // Version 2 (the agent loop) only adds stores; nothing existing changes, so no upgrade function is needed.
  2: {
    providers: 'id',
    settings: 'key',
    todos: 'sessionID',
    // Whole tool outputs behind truncated parts; sessionID for cascading deletes.
    outputs: 'id, sessionID',
    // Prompts queued behind a running turn, oldest first per session.
    inbox: 'id, sessionID',
  },
  // Version 3 (workspace and tools) only adds stores.
  3: {
    // A project's files and directories; [projectID+path] keeps a directory's entries together and in order.
    files: '[projectID+path], projectID',
    // Contents by hash, shared by files and snapshots.
    blobs: 'hash',
    snapshots: 'id, projectID',
    approvals: 'id, projectID',
    // Open permission questions; sessionID to find a session's pending asks.
    asks: 'id, sessionID',
  },
  // Version 4 (history operations) indexes where each session was forked from, to list a session's forks. The new
  // index is built by IndexedDB from the existing rows (sessions that were never forked are left out of it), so no
  // upgrade function is needed.
  4: {
    sessions: 'id, [projectID+time.updated+id], [time.updated+id], parentID, fork.sessionID',
  },
  // Version 6 (search over long histories, issue 18) adds the word index (`search-index.ts`): one row per final text
  // part, keyed by the part's id, `*words` a multiEntry index (a part per word it holds, in part-id order: newest
  // last). Its rows are written by the store's own part writes; rows of an upgraded database are indexed in the
  // background (`searchMeta`'s backfill mark), never in the upgrade, so opening stays instant. Version 5 is left to
  // another change.
  6: {
    searchIndex: 'partID, sessionID, *words',
    searchMeta: 'key',
  },
  // Version 7 (project trust, issue 27) changes no store or index: its upgrade gives every project row a trust state
  // and an origin (`project-trust-upgrade.ts`).
  7: {},
  // Version 8 (a folder on disk as a project, issue 30) adds the store of folder handles, one per project opened from
  // disk (`ProjectFolderSchema`); no existing row changes, so no upgrade function is needed.
  8: {
    folders: 'projectID',
  },
  // Version 9 (sync, issue 31) adds two stores and changes no row: what this device last exchanged with a sync
  // server per row (`SyncDocSchema`, keyed by the row's id) and how far it has read each server's changes
  // (`SyncCheckpointSchema`). No upgrade function is needed; a database that never syncs leaves both empty.
  9: {
    syncDocs: 'id',
    syncMeta: 'key',
  },
  // Version 10 (sync, issue 31) adds the change log a push reads instead of hashing every row: one entry per row
  // written since the last push (`SyncOutboxEntrySchema`, keyed `<table>\n<key>`), written only while sync is set up
  // (`sync-outbox.ts`); and indexes `syncDocs` by the row's own key where the document id is not it (`local`: a
  // message deleted here is found by its id, though its document id starts with its session's group). IndexedDB
  // builds the index from existing rows (none of which has `local`); no row changes, so no upgrade function.
  10: {
    syncDocs: 'id, local',
    syncOutbox: 'id',
  },
  // Version 11 (issue 32) indexes a session's messages by role, so the history walk reads the prompts before a long
  // run of replies without reading the replies (`recent-history.ts`). IndexedDB builds the index from the existing
  // rows (every message has a role); no row changes, so no upgrade function is needed.
  11: {
    messages: 'id, [sessionID+time.created+id], [sessionID+role+time.created+id]',
  },
} as const

export const SCHEMA_VERSION = 11

/**
 * Bounds for compound-key ranges. Dexie.maxKey is one shared array object, and IndexedDB rejects a key that holds
 * the same object twice (it takes it for a cycle), so ranges spell their bounds out: times are numbers, ids ASCII.
 */
export const KEY = { timeMin: -Infinity, timeMax: Infinity, idMin: '', idMax: '\uffff' } as const

export class TabcodeDatabase extends Dexie {
  projects!: EntityTable<Project, 'id'>
  sessions!: EntityTable<SessionInfo, 'id'>
  messages!: EntityTable<Message, 'id'>
  parts!: EntityTable<Part, 'id'>
  providers!: EntityTable<ProviderConfig, 'id'>
  settings!: EntityTable<Setting, 'key'>
  todos!: EntityTable<TodoList, 'sessionID'>
  outputs!: EntityTable<ToolOutput, 'id'>
  inbox!: EntityTable<InboxEntry, 'id'>
  files!: Dexie.Table<WorkspaceEntry, [string, string]>
  blobs!: EntityTable<Blob, 'hash'>
  snapshots!: EntityTable<Snapshot, 'id'>
  approvals!: EntityTable<Approval, 'id'>
  asks!: EntityTable<PermissionAsk, 'id'>
  searchIndex!: EntityTable<SearchIndexRow, 'partID'>
  searchMeta!: EntityTable<SearchBackfill, 'key'>
  folders!: EntityTable<ProjectFolder, 'projectID'>
  syncDocs!: EntityTable<SyncDoc, 'id'>
  syncMeta!: EntityTable<SyncMeta, 'key'>
  syncOutbox!: EntityTable<SyncOutboxEntry, 'id'>
  /** Whether this connection records writes for sync (`sync-outbox.ts`); read from `syncMeta` when it opens. */
  readonly outbox: OutboxSwitch = { live: false }
  /** Tells the other tabs' connections the outbox was turned on or off. */
  readonly announceOutbox: (live: boolean) => void

  constructor(name: string = DATABASE_NAME, options?: ConstructorParameters<typeof Dexie>[1]) {
    super(name, { chromeTransactionDurability: 'relaxed', ...options })
    this.version(1).stores(SCHEMA_VERSIONS[1])
    this.version(2).stores(SCHEMA_VERSIONS[2])
    this.version(3).stores(SCHEMA_VERSIONS[3])
    this.version(4).stores(SCHEMA_VERSIONS[4])
    // The parts already stored wait for the background backfill: the upgrade itself only sets its mark.
    this.version(6)
      .stores(SCHEMA_VERSIONS[6])
      .upgrade((tx) => tx.table(META_STORE).put({ key: 'backfill', below: KEY.idMax }))
    this.version(7).stores(SCHEMA_VERSIONS[7]).upgrade(addProjectTrust)
    this.version(8).stores(SCHEMA_VERSIONS[8])
    this.version(9).stores(SCHEMA_VERSIONS[9])
    this.version(10).stores(SCHEMA_VERSIONS[10])
    this.version(11).stores(SCHEMA_VERSIONS[11])
    this.use(searchIndexMiddleware)
    this.use(syncOutboxMiddleware(this.outbox))
    this.announceOutbox = watchOutboxSwitch(this.outbox, name)
    // Before the first write of this connection: a device that set sync up records from its first write after a reload.
    // A database this build does not know (a newer version's) may lack the store: `openDatabase` refuses it after this.
    this.on('ready', async () => {
      if (!this.backendDB().objectStoreNames.contains('syncMeta')) return
      this.outbox.live = (await this.syncMeta.get(OUTBOX_MARK)) !== undefined
    })
  }
}
