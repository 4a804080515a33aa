/**
 * A remote hub whose implementation (RemoteHub: the MCP client, the mirror, the stream and their
 * zod schemas) is imported on its first use: a process that only touches local hubs (`muster
 * patch verify`, most CLI commands) never loads it, though its hub service can open either kind.
 * Every call waits for the import and goes to the one RemoteHub; a subscription made before it is
 * loaded starts when it is.
 */
import type {
  AckInput,
  AnnounceInput,
  AppendInput,
  ArtifactPutInput,
  EventFilters,
  HubPort,
  HubSubscription,
  InboxQuery,
  ListQuery,
  OverviewQuery,
  PatchSubmitInput,
  PresenceQuery,
  TailListener,
  TailStart,
  TaskCreateInput,
  TasksQuery,
  ThreadQuery,
  WaitQuery,
  EventPosition
} from '../hub-port'
import type { RemoteHub, RemoteHubOptions } from './remote-hub'

/** A Hub that is a RemoteHub once loaded. */
export class LazyRemoteHub implements HubPort {
  readonly kind = 'remote' as const
  readonly location: string
  readonly label: string
  private loaded: RemoteHub | null = null
  private readonly ready: Promise<RemoteHub>

  constructor(o: RemoteHubOptions) {
    this.location = o.url
    this.label = o.url
    this.ready = import('./remote-hub').then(({ RemoteHub }) => (this.loaded = new RemoteHub(o)))
  }

  /** The RemoteHub itself. */
  remote(): Promise<RemoteHub> {
    return this.ready
  }

  status = () => this.ready.then((h) => h.status())
  create = () => this.ready.then((h) => h.create())
  list = (q: ListQuery) => this.ready.then((h) => h.list(q))
  count = (f: EventFilters) => this.ready.then((h) => h.count(f))
  get = (id: string) => this.ready.then((h) => h.get(id))
  tip = () => this.ready.then((h) => h.tip())
  wait = (q: WaitQuery) => this.ready.then((h) => h.wait(q))
  thread = (q: ThreadQuery) => this.ready.then((h) => h.thread(q))
  tasks = (q: TasksQuery) => this.ready.then((h) => h.tasks(q))
  presence = (q: PresenceQuery) => this.ready.then((h) => h.presence(q))
  inbox = (q: InboxQuery) => this.ready.then((h) => h.inbox(q))
  unread = (agent: string, after: EventPosition | null) => this.ready.then((h) => h.unread(agent, after))
  latestInbox = (agent: string, after: EventPosition | null) => this.ready.then((h) => h.latestInbox(agent, after))
  overview = (q: OverviewQuery) => this.ready.then((h) => h.overview(q))
  getArtifact = (id: string) => this.ready.then((h) => h.getArtifact(id))
  append = (e: AppendInput) => this.ready.then((h) => h.append(e))
  ack = (a: AckInput) => this.ready.then((h) => h.ack(a))
  createTask = (t: TaskCreateInput) => this.ready.then((h) => h.createTask(t))
  announce = (a: AnnounceInput) => this.ready.then((h) => h.announce(a))
  putArtifact = (a: ArtifactPutInput) => this.ready.then((h) => h.putArtifact(a))
  submitPatch = (p: PatchSubmitInput) => this.ready.then((h) => h.submitPatch(p))
  close = () => this.ready.then((h) => h.close())
  /** Closes it and deletes its mirror. */
  destroy = () => this.ready.then((h) => h.destroy())

  subscribe(start: TailStart, listener: TailListener): HubSubscription {
    if (this.loaded) return this.loaded.subscribe(start, listener)
    let inner: HubSubscription | null = null
    let closed = false
    void this.ready.then((h) => {
      if (!closed) inner = h.subscribe(start, listener)
    })
    return {
      poke: () => inner?.poke(),
      close: () => {
        closed = true
        inner?.close()
      }
    }
  }
}
