/**
 * Fifty exchanges of an ordinary coding conversation (a small inventory service gaining a CSV import), written for
 * the share-link size test and benchmark. Each message is different prose, with the markdown and code a model
 * writes, so deflate gets no more help than it would from a real session.
 */
export const CONVERSATION: readonly [user: string, assistant: string][] = [
  [
    'I have a small Express + TypeScript service that tracks warehouse inventory. I want to add a CSV import for stock counts. Where would you start?',
    "I'd start by reading how items are stored today, so the import writes through the same path as the API. From what you describe, three pieces are needed:\n\n1. **A parser** that turns the uploaded file into rows and reports bad lines with their line numbers.\n2. **A validator** that checks each row against the same rules the `POST /items` handler uses (SKU format, non-negative quantity, known warehouse).\n3. **A writer** that applies the valid rows in one database transaction, so a failed import never leaves half the counts updated.\n\nCould you show me `src/routes/items.ts` and the model file it imports? Then I can propose where each piece lives.",
  ],
  [
    "Here's the route file. Items are in Postgres through Knex, the model is `src/models/item.ts` and it exports `upsertItem(trx, item)`.",
    'Thanks, that helps. `upsertItem` already takes a transaction handle, which is exactly what the importer needs: we can open one transaction in the import route and call `upsertItem` for every row inside it.\n\nTwo things I noticed while reading:\n\n- The route validates `quantity` with `parseInt`, which accepts `"12abc"` as 12. For a bulk import that would silently hide typos, so the CSV validator should use a stricter check (`/^\\d+$/`).\n- `warehouseId` is checked with a query per request. For thousands of rows we should load the list of warehouses once and check membership in memory.\n\nI\'ll put the parser and validator in `src/import/` as pure functions and keep the route thin. Does that layout match how the rest of the project is organised?',
  ],
  [
    'Yes, pure functions in their own folder is fine. We already use zod elsewhere, can the validator use it too?',
    "Zod is a good fit. A row schema could look like this:\n\n```ts\nconst StockRow = z.object({\n  sku: z.string().regex(/^[A-Z]{3}-\\d{4}$/),\n  warehouse: z.string().min(1),\n  quantity: z.string().regex(/^\\d+$/).transform(Number),\n  note: z.string().max(200).optional(),\n})\n```\n\nThe quantity stays a string in the schema because CSV cells are always text; the `transform` turns it into a number only after the format check passed. For error messages, I would map zod's issues to `{ line, column, message }` so the UI can point at the exact cell. Want me to write the schema file and a first test?",
  ],
  [
    'Go ahead. Tests are in vitest, next to the source files.',
    "Done. I created `src/import/stock-row.ts` with the schema and a `validateRows(rows, warehouses)` function, and `src/import/stock-row.test.ts` with five cases:\n\n- a valid row passes and its quantity becomes a number;\n- a lowercase SKU is rejected with the column name `sku`;\n- `12abc` as a quantity is rejected (the case `parseInt` would have let through);\n- an unknown warehouse is reported with its line number;\n- an empty note is accepted.\n\nAll five pass locally (`npx vitest run src/import`). The function returns `{ valid, errors }` rather than throwing, so the route can decide whether a partly broken file should be refused or applied without the bad lines.",
  ],
  [
    'What about the parser itself? Should we pull in a CSV library or write one?',
    "For a real import I'd use a library. CSV looks simple until you meet quoted fields with commas, doubled quotes inside quotes, Windows line endings, a byte-order mark from Excel, and cells that span lines. A hand-written splitter on `,` and `\\n` gets all of those wrong.\n\n`csv-parse` is well maintained, streams, and has a sync API for small files. With `columns: true` it gives objects keyed by the header row, and `relax_column_count: false` makes a row with a missing cell an error instead of a shifted row.\n\nIf you would rather avoid a dependency, I can write a small RFC 4180 parser with tests for each of those cases, but it is more code to own. Which do you prefer?",
  ],
  [
    "Let's use csv-parse. Files will be at most a few MB.",
    "Then the sync API is enough and keeps the code simple. I added `csv-parse` to `dependencies` and wrote `src/import/parse-csv.ts`:\n\n```ts\nexport function parseStockCsv(text: string): ParsedCsv {\n  const records = parse(text, {\n    columns: (header: string[]) => header.map((name) => name.trim().toLowerCase()),\n    skip_empty_lines: true,\n    bom: true,\n    trim: true,\n  })\n  return { rows: records, header: Object.keys(records[0] ?? {}) }\n}\n```\n\nHeaders are lowercased and trimmed, so `SKU`, ` sku ` and `Sku` all work, which matters because people export these sheets from different tools. Parse errors are caught and returned as a single error with the line number csv-parse reports.",
  ],
  [
    'The header check: what happens if someone uploads a file with the columns in a different order, or with extra columns?',
    "Order doesn't matter, because rows become objects keyed by header name. Extra columns are the more interesting case. I see two reasonable policies:\n\n- **Ignore them.** Convenient when people export a whole sheet with columns like `location` or `last_checked`.\n- **Refuse them.** Safer if a misspelled header (`quantiy`) would otherwise be ignored while the real column is missing.\n\nThe second problem is already caught, since a missing required column fails validation for every row. So I'd ignore unknown columns but list them in the import summary: *\"Ignored columns: location, last_checked\"*. That way the user sees it without the import failing. I've implemented that in `parseStockCsv`, which now returns `ignoredColumns`.",
  ],
  [
    'Nice. Now the route. POST /imports/stock with a multipart upload?',
    "Multipart works, but since the files are small, a plain `text/csv` body is simpler and avoids adding `multer`. The browser can send the file with `fetch(url, { method: 'POST', body: file, headers: { 'content-type': 'text/csv' } })`.\n\nThe route I wrote in `src/routes/imports.ts`:\n\n1. reads the body with `express.text({ type: 'text/csv', limit: '5mb' })`;\n2. parses and validates;\n3. if there are errors and `?partial=true` is not set, answers `422` with the error list and writes nothing;\n4. otherwise opens a Knex transaction and upserts every valid row;\n5. answers `200` with counts: created, updated, skipped, ignored columns.\n\nThe 5 MB limit makes Express answer `413` on anything bigger before we parse it.",
  ],
  [
    'How do you know created vs updated? upsertItem returns nothing.',
    "Right, it doesn't, so I looked at its query: it's an `insert ... on conflict (sku, warehouse_id) do update`. Postgres can tell us which one happened through the `xmax` system column: it is `0` for a freshly inserted row and non-zero for an updated one. Adding `returning (xmax = 0) as inserted` to the query gives us a boolean per row.\n\nI changed `upsertItem` to return `{ inserted: boolean }` and checked its two other callers: both ignore the return value, so nothing else changes. It's a small trick, but it's documented Postgres behaviour and avoids a second query per row. I left a comment in the model explaining why `xmax` is used.",
  ],
  [
    "Hmm, I'm not sure I like relying on xmax. Is there a cleaner way?",
    "Fair concern; it's an implementation detail that people reading the code may not know. Two cleaner alternatives:\n\n- **Read first.** Before the upsert loop, select the existing `(sku, warehouse_id)` pairs for the SKUs in the file in one query, keep them in a `Set`, and count a row as updated when its key is in the set. One extra query for the whole import, not per row.\n- **Compare counts.** Count rows before and after. Cheaper, but it only gives totals and breaks down if another request inserts items concurrently.\n\nThe first one is explicit and still fast, so I switched to it and reverted the `xmax` change in `upsertItem`. The import summary numbers come from the set now.",
  ],
  [
    'Better. Can you run the whole test suite to make sure nothing else broke?',
    "I ran `npm test`. Results:\n\n- 212 tests passed;\n- 1 failed: `routes/items.test.ts › rejects negative quantity`.\n\nThe failure isn't caused by the import work. The test posts `quantity: -1` and expects a `400`, but it gets `500`. Looking at the stack trace, the handler calls `parseInt('-1')`, gets `-1`, and the database check constraint `quantity >= 0` throws, which the error middleware maps to `500`. So the API never validated negative numbers; the constraint was the only guard. The test was probably added recently and never passed. Do you want me to fix the handler too, or keep this change focused on the import?",
  ],
  [
    "Fix it, it's a one-liner I guess. But keep it a separate commit.",
    "It is nearly one line. I made the items handler use the same `quantity` rule as the CSV schema, by moving the regex into `src/import/rules.ts` and importing it in both places, so the API and the import can't drift apart again.\n\nThe handler now answers `400` with `{ field: 'quantity', message: 'must be a whole number, 0 or more' }`. The previously failing test passes, and I added one for `12abc`. I staged this as its own change with the message *\"items: validate quantity before it reaches the database\"*, separate from the import work.",
  ],
  [
    'Now the frontend. We use React with react-query. Where should the upload UI go?',
    "The inventory page already has a toolbar with *Add item* and *Export*. An *Import CSV* button next to them is where people will look for it.\n\nI'd build it as a dialog with three states:\n\n1. **Pick a file.** A drop zone and a file input, accepting `.csv` only.\n2. **Review.** After a dry run (`?dryRun=true`, which validates but writes nothing), show the counts and the first twenty errors in a table with line, column and message.\n3. **Done.** The summary, and the inventory query invalidated so the table refreshes.\n\nThe dry run needs a small backend change: the route does everything except opening the transaction. Shall I add that first?",
  ],
  [
    'Yes, add the dry run.',
    "Added. With `?dryRun=true` the route parses, validates and computes the created/updated split (the read-first query runs, since it only reads), then answers `200` with the same summary shape plus `dryRun: true`, without opening a write transaction.\n\nTests in `src/routes/imports.test.ts` cover it:\n\n- a dry run of a valid file reports counts and leaves the table unchanged;\n- a dry run of a file with errors answers `200` with the errors (not `422`), since reviewing errors is the point of a dry run;\n- a real run of the same file afterwards writes the rows.\n\nThe summary type is exported from `src/import/summary.ts` so the frontend can import it through the shared types package.",
  ],
  [
    "We don't have a shared types package. The frontend is a separate repo.",
    "Thanks for correcting me; I assumed a monorepo from the folder names. In that case the frontend needs its own copy of the summary type. Options:\n\n- copy the type by hand and keep it small (it's six fields);\n- generate types from an OpenAPI description, if you already publish one;\n- export a JSON schema from the zod schema with `zod-to-json-schema` and generate from that.\n\nLooking at the repo, there's an `openapi.yaml` that covers the items routes. The simplest consistent move is to add the import route to it, and the frontend can keep using whatever generator it already runs against that file. I've added the path, the query parameters and the response schema to `openapi.yaml`.",
  ],
  [
    'Good call. The frontend runs openapi-typescript on that file. Let me switch to that repo. Can you look at src/pages/Inventory.tsx?',
    "I've read it. A few notes before adding the dialog:\n\n- The page fetches items with `useQuery(['items', warehouseId], ...)`. After an import we should invalidate `['items']` (all warehouses), because a file can touch several.\n- The toolbar is a `<Stack direction=\"row\">` with two `Button`s from your UI kit; the new button fits there.\n- There's already a `ConfirmDialog` component in `src/components/`. Its props are too narrow for a three-step flow, so I'd write an `ImportDialog` next to it using the same `Dialog` primitive underneath.\n\nI'll create `src/features/import/ImportDialog.tsx`, a `useStockImport` hook that wraps the two requests, and wire the button into the page.",
  ],
  [
    'Sounds right. Use react-query mutations for the two requests.',
    "Here's the hook:\n\n```tsx\nexport function useStockImport() {\n  const queryClient = useQueryClient()\n  const dryRun = useMutation({ mutationFn: (file: File) => postImport(file, { dryRun: true }) })\n  const apply = useMutation({\n    mutationFn: (file: File) => postImport(file, { dryRun: false }),\n    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['items'] }),\n  })\n  return { dryRun, apply }\n}\n```\n\n`postImport` sends the file as the request body with `content-type: text/csv`. The dialog keeps the chosen `File` in state so the same file goes to both requests; the user doesn't have to pick it twice. The review step shows a spinner while the dry run is pending and the error table once it resolves.",
  ],
  [
    'What if the file changes on disk between the dry run and the apply?',
    "Good question. A `File` object from an input is a reference to the file on disk, and if the user edits and saves it in between, some browsers read the new content and others throw `NotReadableError` when we read it again.\n\nThe robust fix is to read the file once, when it is chosen, with `await file.text()`, keep the text in state, and send that text to both requests. Then the dry run and the apply are guaranteed to see the same bytes, and a file edited in between has no effect until the user picks it again.\n\nSince the server caps uploads at 5 MB, holding the text in memory is fine. I changed the dialog and the hook to pass a string instead of a `File`.",
  ],
  [
    'How does the error table look when there are hundreds of errors?',
    "Right now it would render all of them, which gets slow and isn't useful. I changed the review step to:\n\n- show the total, e.g. *\"342 rows have problems\"*;\n- group errors by message, since a wrong column usually produces the same error on every line: *\"SKU must look like ABC-1234: lines 2–301\"*;\n- show at most 50 individual errors below the groups;\n- offer *Download all errors* as a CSV with `line,column,message`, generated in the browser from the response.\n\nGrouping turned the worst case from my test file (a sheet with the SKU column shifted by one) into two lines of summary instead of a wall of red.",
  ],
  [
    'Love the grouping. Line ranges like 2-301 assume the lines are contiguous though.',
    "True, I simplified too much. The grouping now collapses consecutive line numbers into ranges and lists the rest, so lines `2, 3, 4, 7, 9, 10` become *\"2–4, 7, 9–10\"*. When a group has more than ten ranges, it shows the first ten and *\"and 31 more\"*.\n\nThe helper is `formatLineRanges(lines: number[])` in `src/features/import/format.ts` with its own tests: an empty list, a single line, one long run, alternating lines, unsorted input (it sorts a copy first), and duplicates (it removes them). I had missed the duplicates case initially; the server can report two errors for the same line when two cells are wrong.",
  ],
  [
    'Can you add a test for the dialog itself? We use Testing Library and msw.',
    "Added `ImportDialog.test.tsx` with msw handlers for the import endpoint. It covers the main path and two failure paths:\n\n1. pick a valid file → the dry run shows *\"12 to create, 3 to update\"* → *Import* → the success summary appears and the items query is invalidated (checked with a spy on `invalidateQueries`);\n2. a file with errors → the review shows the grouped errors and the *Import* button reads *\"Import 9 valid rows\"*;\n3. the server answers `413` → the dialog says the file is over 5 MB and goes back to the picker.\n\nFor the file input I used `userEvent.upload` with a `File` built from a string. All three pass.",
  ],
  [
    'The 413 message: can we check the size before uploading instead?',
    "Yes, and we should do both. Checking `file.size` in the browser gives instant feedback without sending 20 MB over a slow connection, while the server limit stays as the real guard (a browser check can always be bypassed).\n\nI added the constant `MAX_IMPORT_BYTES = 5 * 1024 * 1024` in the frontend with a comment pointing at the server's limit, and the picker now refuses a larger file with *\"This file is 7.3 MB; imports are limited to 5 MB. Split it into smaller files.\"* The `413` handling stays, in case the two limits ever disagree. The size is formatted with `Intl.NumberFormat` so it reads naturally in the user's locale.",
  ],
  [
    "Let's go back to the backend. How long does an import of 10k rows take?",
    "I generated a 10,000-row file with a script (`scripts/make-stock-csv.ts`, random SKUs over 5 warehouses) and timed the route locally against the dev database:\n\n| step | time |\n|---|---|\n| parse | 38 ms |\n| validate | 61 ms |\n| read existing keys | 45 ms |\n| upserts | 4.9 s |\n\nSo the writes dominate: each `upsertItem` is one round trip, and 10,000 of them take about half a millisecond each. The rest is negligible. Batching the upserts into multi-row statements should bring that down a lot.",
  ],
  [
    'Batch them then. Is there a limit on how many rows per statement?',
    "Postgres allows at most 65,535 bind parameters in one statement. Each row has five columns, so the hard ceiling is about 13,000 rows; I chose batches of 1,000 to stay well below it and to keep each statement's memory modest.\n\nI added `upsertItems(trx, items)` next to `upsertItem`. It builds one `insert ... values (...), (...) on conflict do update` per batch with Knex's `insert(array).onConflict([...]).merge([...])`. The import route now calls it; the single-row function stays for the API.\n\nNew timing for the 10,000-row file: upserts take **310 ms** instead of 4.9 s. The total request is now under half a second.",
  ],
  [
    'What happens if two rows in the same file have the same SKU and warehouse?',
    "Then Postgres refuses the batch: `ON CONFLICT DO UPDATE command cannot affect row a second time`. A single statement can't update the same row twice. With the old one-row-at-a-time loop, the last row silently won.\n\nI think a duplicate key in one file is almost always a mistake (a row pasted twice, or two counts for the same shelf), so the validator now reports it: *\"Line 57 repeats SKU ABC-1234 in warehouse north (first on line 12)\"*. The rows are kept out of the valid set, which also guarantees every batch has unique keys.\n\nIf you'd rather sum the two quantities, that's a small change, but I'd want that to be explicit in the UI.",
  ],
  [
    'Reporting it is right. People do paste rows twice.',
    "Good, then it stays as an error. I added two tests: a file where the same key appears twice reports the second line and applies neither duplicate in a partial import, and a file where the same SKU appears in two different warehouses is valid (the key is the pair, not the SKU alone).\n\nThe duplicate check uses a `Map<string, number>` from `${sku}\\u0000${warehouse}` to the first line number. The NUL separator can't appear in either field, so two different pairs can never produce the same key, which a plain `-` could (SKUs contain dashes).",
  ],
  [
    'Should the import be logged somewhere? Auditors ask who changed stock counts.',
    "An audit trail makes sense for stock counts. There's already an `audit_log` table used by the items API: each row has `actor_id`, `action`, `entity`, `entity_id`, `before`, `after` (JSONB) and `created_at`.\n\nFor imports I'd write one audit row per changed item, in the same transaction as the upserts, so the log can never disagree with the data. With 10,000 rows that's 10,000 audit rows; batched the same way, it adds roughly 150 ms.\n\nAdditionally, one `imports` row per import (who, when, file name, counts, and a SHA-256 of the file) lets an auditor answer *\"where did this number come from\"* by linking each audit row to its import. Want both?",
  ],
  [
    'Both. Keep the file hash, not the file itself.',
    "Implemented:\n\n- Migration `20261130_create_imports.ts` adds the `imports` table and a nullable `import_id` column on `audit_log` with a foreign key.\n- The route computes the SHA-256 of the body with `node:crypto` before parsing, inserts the `imports` row first in the transaction, and passes its id to the batched audit insert.\n- `before` is taken from the same read-first query we already run, so there's no extra query; I extended it to select the quantities too.\n\nThe migration runs forward and back cleanly on an empty database and on a copy of the seed data. The dry run doesn't write an `imports` row, since nothing changed.",
  ],
  [
    "Wait, you said the read-first query selects keys only. Won't selecting quantities for 10k rows be slow?",
    "It selects at most one row per line in the file, filtered by the composite index on `(sku, warehouse_id)`, so it reads exactly the rows we're about to touch. Adding the `quantity` column doesn't change the plan: Postgres has to visit the heap for those rows anyway, since the index doesn't include visibility information.\n\nMeasured on the 10,000-row file: 45 ms before, 52 ms after. So a few milliseconds, which is noise next to the writes.\n\nOne thing worth knowing: the query uses `where (sku, warehouse_id) in (values ...)`, and for very large files the `VALUES` list gets long. At our 5 MB cap that's about 80,000 rows, which Postgres handles fine, but if the limit grows we'd switch to a temporary table.",
  ],
  [
    'OK. Now permissions: only warehouse managers should be able to import.',
    "The app has a `requireRole(...roles)` middleware used on the admin routes. I added `requireRole('manager', 'admin')` to `POST /imports/stock`.\n\nThere's a subtlety: managers are assigned to warehouses (the `manager_warehouses` table), and the items API already checks that a manager only edits items in their own warehouses. The import must apply the same rule, or a manager could change counts anywhere by uploading a file.\n\nSo the validator now receives the set of warehouses the user may edit (all of them for admins) and reports rows for other warehouses as errors: *\"You can't change stock in warehouse south\"*. A test covers a manager uploading a file that mixes their own and someone else's warehouse.",
  ],
  [
    'Good catch on the warehouse scoping. Does the dry run enforce it too?',
    "Yes. The permission check lives in the validator, and the dry run runs the validator, so a manager sees those errors during review, before anything is written. The role check (`requireRole`) runs for both as middleware on the route, so someone without the role gets `403` for a dry run as well.\n\nI added a test for that last case, because it's easy to assume a dry run is harmless: it isn't quite, since its answer reveals which SKUs exist in which warehouse (the created/updated split). Without the role check, any logged-in user could probe the inventory through it.",
  ],
  [
    'Can the frontend hide the button for people who cannot import?',
    "It can. The frontend gets the current user from `useCurrentUser()`, which includes `role`. I wrapped the button in `{canImport(user) && ...}`, where `canImport` returns true for managers and admins.\n\nHiding is only for convenience; the server check is what enforces it. To keep the two in sync, I put the role list in one place in the frontend (`src/auth/permissions.ts`) with a comment naming the backend route that enforces it.\n\nA manager without any assigned warehouse sees the button but gets only errors. That matches how the *Add item* button behaves today, so I left it consistent rather than special-casing it.",
  ],
  [
    "Let's write the docs for this. There's a docs/ folder with markdown.",
    "I added `docs/stock-import.md`. It explains:\n\n- who can import (managers for their warehouses, admins everywhere);\n- the file format: required columns `sku`, `warehouse`, `quantity`, optional `note`, headers case-insensitive, extra columns ignored and listed;\n- the rules each cell must follow, with an example of each error message;\n- the dry run and partial imports;\n- limits: 5 MB per file, duplicates in a file are refused;\n- where to find an import afterwards in the audit log.\n\nThere's also a small sample file, `docs/examples/stock-import.csv`, with five rows that import cleanly against the seed data. The docs index links to the new page.",
  ],
  [
    'The sample file has Windows line endings, is that a problem?',
    "It's not a problem for the importer: csv-parse accepts `\\r\\n`, `\\n` and `\\r`, and my test suite has a case for each. It was deliberate, since most of the files people upload will come from Excel on Windows.\n\nIt can be a problem for the repository, though. Your `.gitattributes` says `* text=auto`, so Git would normalise the file to `\\n` on commit and the sample would no longer show the Windows case. If we want to keep it as is, the file needs `docs/examples/*.csv -text` in `.gitattributes`.\n\nI'd keep the sample with `\\n` (simpler) and rely on the unit test for `\\r\\n`. I converted the file and didn't touch `.gitattributes`.",
  ],
  [
    'Agreed. What about non-ASCII characters in notes, like umlauts?',
    "They're fine as long as the file is UTF-8. Two cases deserve attention:\n\n- **UTF-8 with BOM** (Excel's *CSV UTF-8* option). Handled: the `bom: true` option strips it, and without that the first header would read `\\ufeffsku` and the column check would fail.\n- **Windows-1252** (Excel's plain *CSV* option on many Western European systems). An umlaut becomes an invalid UTF-8 byte and Node replaces it with `�`.\n\nFor the second, I added a check: if the decoded text contains U+FFFD, the import fails with *\"This file is not UTF-8. In Excel, save it as CSV UTF-8.\"* Guessing the encoding is possible, but a wrong guess would silently corrupt notes, and a clear message costs the user one extra save.",
  ],
  [
    'Nice. The express.text middleware decodes before our code sees it, right? How do you detect the replacement character then?',
    "You're right that `express.text` decodes the body as UTF-8 and the original bytes are gone by the time the handler runs. But the replacement character ends up in the decoded string, and that's exactly what the check looks for: `text.includes('\\uFFFD')`.\n\nThe only false positive would be a legitimate UTF-8 file that itself contains U+FFFD, which happens when a file was already damaged by an earlier bad conversion. Refusing it then is arguably correct too.\n\nIf we ever want to support other encodings, we'd switch to `express.raw` to receive bytes and decode with `TextDecoder` ourselves. I left a comment about that next to the check.",
  ],
  [
    'Run the full suite again, both repos.',
    "Backend: `npm test`, 241 passed, 0 failed, 11.2 s. The new tests are in `src/import/` (34) and `src/routes/imports.test.ts` (14).\n\nFrontend: `npm test`, 96 passed, 0 failed. `npm run typecheck` passes, and `npm run lint` reports one warning in `ImportDialog.tsx`: a `useEffect` dependency list is missing `onClose`. That's real: if the parent passed a new callback, the effect would keep calling the old one. I wrapped the call so it reads the latest prop through a ref, which is the pattern used elsewhere in the codebase (`useLatest`). Lint is clean now.",
  ],
  [
    "Let's open PRs. What would you put in the description?",
    "For the backend PR:\n\n> **Stock counts can be imported from a CSV file**\n>\n> Managers can upload a CSV of stock counts for their warehouses; admins for all. A dry run shows what would change and every problem by line and column. The import applies in one transaction, in batches of 1,000 rows (10,000 rows in about 0.4 s locally), and records an `imports` row with the file's SHA-256 plus an audit entry per changed item.\n>\n> Also fixes the items API accepting `-1` and `12abc` as quantities (separate commit).\n>\n> Docs: `docs/stock-import.md`. Migration: `20261130_create_imports`.\n\nThe frontend PR would link to it and include a screenshot of the review step with grouped errors. Should I draft that one too?",
  ],
  [
    'Yes please, and mention the file size check.',
    "> **Import stock counts from CSV**\n>\n> Adds an *Import CSV* button on the inventory page for managers and admins. The dialog reads the file once, runs a dry run, and shows the counts and the problems grouped by message with line ranges (*\"SKU must look like ABC-1234: lines 2–4, 7\"*), with a download of all errors as CSV. Files over 5 MB are refused before uploading; the server enforces the same limit. After an import, the inventory list refreshes.\n>\n> Needs the backend PR for `POST /imports/stock` and the updated `openapi.yaml`; types were regenerated with `npm run gen:api`.\n\nI can't take the screenshot myself from here, so I left a placeholder line for it.",
  ],
  [
    'Review comment from a colleague: "why not stream the CSV instead of holding 5MB in memory?"',
    "A fair question, and the honest answer is that at 5 MB streaming doesn't buy much:\n\n- the parsed rows are needed all at once anyway, because duplicates are checked across the whole file and the dry run reports on everything before anything is written;\n- 5 MB of text becomes roughly 20–30 MB of JavaScript objects for the largest file, for the duration of one request;\n- the request is admin-only and rare.\n\nStreaming would matter if the limit went to hundreds of MB, and then the design would change more fundamentally (a background job with progress, temporary tables for the key lookup). I'd answer along those lines and offer to revisit if the limit ever needs to grow. Want me to draft the reply?",
  ],
  [
    "Draft it, but keep it short. They don't like long comments.",
    "> We need every row before writing anything: duplicates are checked across the whole file, and the dry run reports on all of it. At 5 MB that's ~30 MB of objects for one rare admin request, so I kept it simple. If the limit grows a lot, I'd move imports to a background job rather than stream inside the request.\n\nThree sentences; it explains the constraint rather than just defending the choice.",
  ],
  [
    'Another comment: "the imports table should store the original filename".',
    "That's cheap and useful: the file name is often the first thing people remember (*\"the one from Tuesday's count\"*). The browser knows it, but since we send the body as `text/csv`, the name isn't in the request.\n\nI added an optional `X-File-Name` header: the frontend sets it from `file.name`, encoded with `encodeURIComponent` because headers must be ASCII and names often aren't. The backend decodes it, trims it to 255 characters, and stores it in a new nullable `file_name` column (added to the same migration, since it hasn't been deployed yet). The audit view shows it next to the hash.",
  ],
  [
    "Should we worry about someone sending a malicious filename? It's shown in the audit view.",
    "It's worth checking, because it's user input that ends up in HTML. Two risks:\n\n- **Script injection in the audit view.** The view is React and renders the name as text (`{importRow.fileName}`), which escapes it. I checked that it isn't passed to `dangerouslySetInnerHTML` anywhere, and added a test rendering a name like `<img src=x onerror=alert(1)>.csv`, asserting it shows up as literal text.\n- **Header injection.** `decodeURIComponent` can produce a newline, but the value only goes into a database column and JSON responses, never into a response header, so there's nothing to inject into.\n\nI also strip control characters before storing it, simply to keep the audit view tidy.",
  ],
  [
    "OK, PRs are approved. Before merging, how do we roll this out? Migration first?",
    "Yes, in this order:\n\n1. **Deploy the backend** with the migration. The migration only adds a table and a nullable column, so it's safe with the old code running alongside during the rollout; nothing reads those yet.\n2. **Verify** with a dry run against production using a small file and an admin account: it writes nothing, and it exercises the parser, validator and the read-first query against real data.\n3. **Deploy the frontend.** Until then the endpoint exists but nobody sees the button.\n\nRolling back the frontend is harmless. Rolling back the backend after real imports would leave `imports` rows that old code ignores, which is also fine; the down migration should only be run if we decide to abandon the feature.",
  ],
  [
    'The dry run in production gave a weird error: "relation manager_warehouses does not exist".',
    "That table must be named differently in production than in development. I searched the migrations: `manager_warehouses` is created in `20250812_managers.ts`, but there's a later migration, `20260301_rename_assignments.ts`, that renames it to `warehouse_assignments`. The items API uses a view created in that migration, which is why it kept working, while my new query references the old name directly.\n\nMy local database was created from a schema dump taken before that rename, so the tests passed. I changed the import's permission query to use `warehouse_assignments` and rebuilt my local database from migrations rather than the dump. Tests pass again. Sorry about that one; it's a good argument for the CI job running migrations from scratch.",
  ],
  [
    "Does CI not run migrations from scratch? I thought it did.",
    "It does for the main test job, and that's what puzzled me, so I checked the workflow. The test job starts Postgres and runs `knex migrate:latest`, which would have created the renamed table. But `src/routes/imports.test.ts` uses a helper, `withSeededDb()`, that restores `test/fixtures/seed.sql`, a dump that predates the rename. That dump still creates `manager_warehouses`, and since the restore runs after the migrations, it recreates the old table on top.\n\nSo CI did run migrations, and then a stale fixture brought the old name back. I regenerated `seed.sql` from a freshly migrated database and added a check to the helper that fails if the dump's schema differs from the migrated one.",
  ],
  [
    'Good find. How does the check compare schemas?',
    "It runs the same query against two databases, one freshly migrated and one restored from the dump, and compares the results:\n\n```sql\nselect table_name, column_name, data_type, is_nullable\nfrom information_schema.columns\nwhere table_schema = 'public'\norder by table_name, column_name\n```\n\nIf the two lists differ, the helper throws with the first few differing rows, e.g. *\"seed.sql has manager_warehouses.user_id, migrations don't\"*. It only compares columns and types, not indexes or constraints, which keeps it fast (about 80 ms) and catches the failure we just had. The check runs once per test run, not per test.",
  ],
  [
    'Deployed the fix, dry run works. We imported the first real file, 2,300 rows, no errors. Thanks!',
    "That's good to hear. A few things worth watching over the next days:\n\n- **Duplicate-row errors.** If people hit them often, their export process probably produces duplicates, and we may want the \"sum them\" option after all.\n- **Encoding errors.** If the *\"save as CSV UTF-8\"* message shows up a lot, detecting Windows-1252 might be worth the risk.\n- **Import times.** The `imports` table has timestamps; a quick query over it will show whether the batch size needs tuning with real data.\n\nAnd the audit trail is already usable: each of those 2,300 changes points to the import and its file hash.",
  ],
  [
    'One last thing: can you summarize what changed, for the changelog?',
    "**Added**\n- Stock counts can be imported from a CSV file (managers for their warehouses, admins for all), with a dry run that lists every problem by line and column, grouped by message.\n- Each import is recorded with who ran it, when, the file name and its SHA-256; every changed count gets an audit entry linked to it.\n\n**Fixed**\n- The items API no longer accepts negative or malformed quantities (`-1`, `12abc`); it answers 400 instead of 500.\n\n**Developer notes**\n- The test seed is regenerated from migrations, and a check now fails if it drifts from them.\n- Docs: `docs/stock-import.md`, with a sample file.",
  ],
  [
    'Perfect. Anything you would do differently next time?',
    "Two things. First, I'd rebuild the local database from migrations before starting, instead of trusting an old dump: the renamed table cost us a failed production dry run that a fresh database would have caught on day one.\n\nSecond, I'd settle the file-level rules (duplicates, unknown columns, encodings) with you before writing the validator. We got to good answers, but some of them arrived as rework after review comments. A short list of *\"what should happen when...\"* questions up front would have saved a round trip or two.\n\nThe rest (pure functions for parsing and validation, one transaction for the writes, a dry run that shares the validator) I'd keep exactly as it is.",
  ],
]
