/**
 * `muster status`'s snapshot (`<home>/status-snapshot.jsonl`): each project's last card, as JSON
 * and as the text lines the command prints, kept under the project's registry row and stamps
 * (core/fleet/project-stamps.ts). Agents' hooks run `muster status` on every tool call: a project
 * whose row and stamps are unchanged is printed from here, after one listing and one `stat` per
 * file, without opening its files, the parse cache or the digests.
 *
 * Every entry proves itself (row and stamps compared on every use), so the file is only ever an
 * accelerator: a stale, foreign, damaged or missing snapshot costs a full read, never a wrong
 * card. It is rewritten whole (temp file + rename) when a read stored new cards; two commands
 * writing at once lose one's additions, not correctness. The first line names the format, the
 * Muster version and the parser version, and a snapshot of another is ignored.
 *
 * The registry is kept too, under the stamps of the state DB's files (any commit changes them), so
 * that a run finding them unchanged need not open SQLite at all.
 *
 * Lines: the header; the byte length of the proofs; the proofs: the registry and its DB stamps (or
 * null), then per project what proves its card and the card's text (read on every run); then per
 * project, in the same order, the card's JSON (read only for `--json`). Everything is written as
 * ASCII (`asciiJson`) and read as latin1, the cheapest decoding.
 */
import { closeSync, fstatSync, openSync, readSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Project, ProjectStatus } from '../shared/api'
import { type ProjectStamps, sameDbStamps, type DbFileStamp } from '../core/fleet'
import { DIGEST_VERSION } from '../core/muse'
import { fileStamp, stampHolds, type FileStamp } from '../shared/file-stamp'
import { MUSTER_VERSION } from '../core/version'
import { asciiJson } from './output'

/** File name of the snapshot in Muster's home. */
export const STATUS_SNAPSHOT_FILE = 'status-snapshot.jsonl'

/**
 * Version of the cards' form: bump it whenever a card's JSON or text changes for the same files
 * (a new field, another rendering), or kept cards of the old form would be printed.
 * `status-snapshot.test.ts` fails when the output changes on its sample while this stays the same.
 */
export const SNAPSHOT_FORMAT = 1

const HEADER = JSON.stringify({ format: SNAPSHOT_FORMAT, muster: MUSTER_VERSION, parser: DIGEST_VERSION })

/** One project's kept card. */
export interface SnapshotCard {
  project: Project
  stamps: ProjectStamps
  /** The card's last change, for the text heading (its age is computed when printed). */
  lastChangeAt: string | null
  /** The text lines under the heading. */
  body: string
  /** The card as JSON text (decoded on demand: only `--json` needs it). */
  json: () => string
}

type Proof = Omit<SnapshotCard, 'json'>

/** The registry as read while the state DB's files had the stamps `db`. */
interface KeptRegistry {
  db: DbFileStamp[]
  projects: Project[]
}

/** The snapshot of one home: read once, looked up per project, saved when cards were added. */
export class StatusSnapshot {
  private readonly cards = new Map<string, SnapshotCard>()
  private kept: KeptRegistry | null = null
  private changed = false
  /** The file the cards were read from: its identity, where its JSON section starts, how many cards. */
  private source: { stamp: FileStamp; jsonAt: number; count: number } | null = null
  private jsonLines: string[] | null = null

  private constructor(private readonly file: string) {}

  /** The snapshot in `home` (empty when missing, unreadable, damaged or of another version); the cards' JSON is read now only `withJson`. */
  static read(home: string, withJson: boolean): StatusSnapshot {
    const snapshot = new StatusSnapshot(join(home, STATUS_SNAPSHOT_FILE))
    let fd: number
    try {
      fd = openSync(snapshot.file, 'r')
    } catch {
      return snapshot
    }
    try {
      // the header and the proofs' length, then only the proofs: the cards' JSON is read for --json only
      const head = readAt(fd, 0, HEADER.length + 24)
      const lengthEnd = head.indexOf('\n', HEADER.length + 1)
      if (!head.startsWith(HEADER + '\n') || lengthEnd < 0) return snapshot
      const proofsAt = lengthEnd + 1
      const proofsLength = Number(head.slice(HEADER.length + 1, lengthEnd))
      const proofs = readAt(fd, proofsAt, proofsLength).split('\n')
      const st = fstatSync(fd)
      snapshot.source = { stamp: fileStamp(st), jsonAt: proofsAt + proofsLength, count: proofs.length - 2 }
      if (withJson) snapshot.jsonLines = snapshot.jsonSection(fd)
      snapshot.kept = JSON.parse(proofs[0]!) as KeptRegistry | null
      for (let i = 1; i < proofs.length - 1; i++) {
        const proof = JSON.parse(proofs[i]!) as Proof
        const at = i - 1
        snapshot.cards.set(proof.project.name, { ...proof, json: () => snapshot.fileJson(at) })
      }
    } catch {
      // a damaged file (a write cut short elsewhere): start over
      snapshot.kept = null
      snapshot.cards.clear()
      snapshot.source = null
    } finally {
      closeSync(fd)
    }
    return snapshot
  }

  /** The JSON of the file's `at`-th card; read from the very file the proofs came from, or throws. */
  private fileJson(at: number): string {
    if (!this.jsonLines) {
      const fd = openSync(this.file, 'r')
      try {
        const st = fstatSync(fd)
        const s = this.source
        if (!s || !stampHolds(s.stamp, st)) throw new Error('the status snapshot was replaced')
        this.jsonLines = this.jsonSection(fd)
      } finally {
        closeSync(fd)
      }
    }
    return this.jsonLines[at]!
  }

  /** The cards' JSON lines of the open snapshot `fd`; throws when there are fewer than its cards. */
  private jsonSection(fd: number): string[] {
    const s = this.source!
    const lines = readAt(fd, s.jsonAt, s.stamp[2] - s.jsonAt).split('\n')
    if (lines.length !== s.count + 1) throw new Error('the status snapshot is damaged')
    return lines
  }

  /** The kept registry, when the state DB's files still have the stamps `db` it was read under. */
  registry(db: readonly DbFileStamp[]): Project[] | null {
    return this.kept && sameDbStamps(this.kept.db, db) ? this.kept.projects : null
  }

  /** Keeps the registry `projects`, read while the state DB's files had the stamps `db`. */
  keepRegistry(projects: Project[], db: DbFileStamp[]): void {
    this.kept = { db, projects }
    this.changed = true
  }

  /** The kept card of `project` when it was kept under the same registry row (its stamps are for the caller to check: `stampsHold`). */
  card(project: Project): SnapshotCard | null {
    const c = this.cards.get(project.name)
    const p = c?.project
    return p && p.key === project.key && p.path === project.path && p.addedAt === project.addedAt ? c : null
  }

  /** Keeps `status` (printed as `body`) under `stamps`, replacing the project's previous card. */
  keep(status: ProjectStatus, stamps: ProjectStamps, body: string): void {
    const project: Project = { name: status.name, key: status.key, path: status.path, addedAt: status.addedAt }
    this.cards.set(project.name, { project, stamps, lastChangeAt: status.lastChangeAt, body, json: () => JSON.stringify(status) })
    this.changed = true
  }

  /** Drops the cards of projects not named in `registered` (after reading the whole registry). */
  retain(registered: readonly Project[]): void {
    const names = new Set(registered.map((p) => p.name))
    for (const name of this.cards.keys()) {
      if (!names.has(name)) {
        this.cards.delete(name)
        this.changed = true
      }
    }
  }

  /** Writes the snapshot if cards changed; best-effort (a read-only home only costs speed). */
  save(): void {
    if (!this.changed) return
    let text: string
    try {
      const proofs = [asciiJson(JSON.stringify(this.kept))]
      const cards: string[] = []
      for (const { json, ...proof } of this.cards.values()) {
        proofs.push(asciiJson(JSON.stringify(proof)))
        cards.push(asciiJson(json()))
      }
      const proofText = proofs.join('\n') + '\n'
      text = `${HEADER}\n${proofText.length}\n${proofText}${cards.map((c) => c + '\n').join('')}`
    } catch {
      return // a card kept from the file needs its JSON, and another command replaced the file since: its save stands
    }
    const tmp = `${this.file}.${process.pid}.tmp`
    try {
      writeFileSync(tmp, text, { encoding: 'latin1', mode: 0o600 })
      renameSync(tmp, this.file)
      this.changed = false
    } catch {
      rmSync(tmp, { force: true })
    }
  }
}

/** Up to `length` bytes of the open file `fd` from `position`, as latin1 text (the snapshot is ASCII, and latin1 the cheapest decoding). */
function readAt(fd: number, position: number, length: number): string {
  const buf = Buffer.allocUnsafe(length)
  const got = readSync(fd, buf, 0, length, position)
  return buf.toString('latin1', 0, got)
}
