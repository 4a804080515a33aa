/**
 * The part of the local hub that appends and follows: health, list/get/tip, the live tail,
 * appends and artifacts, over one `HubConnection`. `LocalHub` extends it with the folds (threads,
 * tasks, presence, inbox, overview), long-poll waits and composed writes. On its own it is the
 * smallest local hub that can append and wait: `muster approve-hook`, which starts on every tool
 * call, loads only this.
 */
import { ApiError } from '../../../shared/api-error'
import type { HubEvent } from '../../../shared/contract/hub-types'
import { checkArtifact } from '../store/artifacts'
import { HubConnection, hubError, type HubConnectionOptions } from '../store/hub-connection'
import type {
  AppendInput,
  ArtifactPutInput,
  ArtifactRecord,
  EventFilters,
  EventPage,
  EventPosition,
  HubPort,
  HubStatus,
  HubSubscription,
  ListQuery,
  StoredArtifact,
  TailListener,
  TailStart
} from '../hub-port'
import { LocalTail } from '../store/local-tail'
import { countOn, eventOn, listOn, tipOn } from '../store/reader'
import { writeRefusal } from '../store/read-only'
import type { HubFile as HubFile } from '../store/schema'
import { appendEvent, checkAppend, getArtifact, putArtifact } from '../store/writer'

/** The methods of the hub interface this class implements. */
export type AppendAndFollow = Pick<
  HubPort,
  | 'kind'
  | 'location'
  | 'label'
  | 'status'
  | 'create'
  | 'list'
  | 'count'
  | 'get'
  | 'tip'
  | 'subscribe'
  | 'getArtifact'
  | 'append'
  | 'putArtifact'
  | 'close'
>

/** A hub file on this machine: append, read, follow. */
export class LocalHubBase implements AppendAndFollow {
  readonly kind = 'local' as const
  /** The palace folder (absolute). */
  readonly location: string
  /** `<palace>/logstream.sqlite3`. */
  readonly label: string
  protected readonly conn: HubConnection
  private readonly tails = new Set<LocalTail>()

  constructor(palace: string, opts: HubConnectionOptions = {}) {
    this.conn = new HubConnection(palace, opts)
    this.location = this.conn.palace
    this.label = this.conn.file
  }

  async status(): Promise<HubStatus> {
    const exists = this.conn.exists()
    let offline: string | null = null
    try {
      await this.conn.readAsync(() => undefined)
    } catch (err) {
      offline = (err as Error).message
    }
    const readOnly = writeRefusal(this.conn.palace, this.conn.file)
    return { exists, online: offline === null, offline_reason: offline, read_only: readOnly !== null, read_only_reason: readOnly }
  }

  /** Creates the hub file (and its folder); a place it cannot be written is refused, naming why. */
  async create(): Promise<void> {
    const refusal = writeRefusal(this.conn.palace, this.conn.file)
    if (refusal) throw new ApiError(`cannot create hub ${this.conn.file}: ${refusal}`, 'forbidden')
    this.conn.allowRecreate()
    await this.write(
      () => undefined,
      () => undefined
    )
  }

  list(q: ListQuery): Promise<EventPage> {
    return this.conn.readAsync((db, shape) => {
      const page = listOn(db, shape, q)
      return { events: page.events, has_more: page.has_more }
    })
  }

  count(filters: EventFilters): Promise<number> {
    return this.conn.readAsync((db, shape) => countOn(db, shape, filters))
  }

  get(id: string): Promise<HubEvent | null> {
    return this.conn.readAsync((db, shape) => eventOn(db, shape, id))
  }

  tip(): Promise<EventPosition | null> {
    return this.conn.readAsync((db, shape) => tipOn(db, shape))
  }

  subscribe(start: TailStart, listener: TailListener): HubSubscription {
    const tail = new LocalTail(this.conn.palace, start, listener)
    this.tails.add(tail)
    const close = tail.close.bind(tail)
    tail.close = () => {
      this.tails.delete(tail)
      close()
    }
    return tail
  }

  getArtifact(id: string): Promise<StoredArtifact | null> {
    return this.conn.readAsync((db) => getArtifact(db, id))
  }

  append(e: AppendInput): Promise<HubEvent> {
    return this.write(
      () => checkAppend(e),
      (w) => appendEvent(w.db, w.replicaId, e)
    )
  }

  putArtifact(a: ArtifactPutInput): Promise<ArtifactRecord> {
    return this.write(
      () => checkArtifact(a),
      (w) => putArtifact(w.db, w.replicaId, a)
    )
  }

  /**
   * A write that changes nothing when refused: the input's own rules first, then a read-only hub
   * (file, folder or mount), both before the hub is opened, created or touched in any way.
   */
  protected async write<T>(check: () => void, fn: (hub: HubFile) => T): Promise<T> {
    try {
      check()
    } catch (err) {
      throw hubError(err, this.conn.file)
    }
    const refusal = writeRefusal(this.conn.palace, this.conn.file)
    if (refusal) throw new ApiError(`hub ${this.conn.file} is read-only (${refusal}): writes are refused`, 'forbidden')
    return this.conn.write(fn)
  }

  async close(): Promise<void> {
    for (const tail of [...this.tails]) tail.close()
    this.conn.close()
  }
}
