/**
 * Dates for the demo fleet, relative to one "now" so the sample always looks current. Role files
 * and memory logs use the operator's local time (as agents write them); the hub uses UTC.
 */
import type { DecisionSigner } from '../../approvals'

const p2 = (n: number): string => String(n).padStart(2, '0')

/** Formatting and arithmetic around a fixed `now`. */
export class DemoClock {
  constructor(readonly now: Date) {}

  /** `daysAgo` days before now at local `hh:mm`, never later than `now` minus a minute. */
  at(daysAgo: number, hh: number, mm = 0): Date {
    const d = new Date(this.now)
    d.setDate(d.getDate() - daysAgo)
    d.setHours(hh, mm, 0, 0)
    const latest = this.now.getTime() - 60_000
    return d.getTime() > latest ? new Date(latest) : d
  }

  /** `minutes` minutes before now. */
  ago(minutes: number): Date {
    return new Date(this.now.getTime() - Math.round(minutes * 60_000))
  }

  /** `M/D` (how agents date directives: `3/15`). */
  md(d: Date): string {
    return `${d.getMonth() + 1}/${d.getDate()}`
  }

  /** `M/D HH:MM`. */
  mdhm(d: Date): string {
    return `${this.md(d)} ${this.hm(d)}`
  }

  /** `HH:MM`. */
  hm(d: Date): string {
    return `${p2(d.getHours())}:${p2(d.getMinutes())}`
  }

  /** `YYYY-MM-DD` (local). */
  ymd(d: Date): string {
    return `${d.getFullYear()}-${p2(d.getMonth() + 1)}-${p2(d.getDate())}`
  }

  /** `YYYY-MM-DD HH:MM` (local). */
  ymdhm(d: Date): string {
    return `${this.ymd(d)} ${this.hm(d)}`
  }

  /** `YYYY-MM-DDTHH:MM:SSZ` (UTC), the squad-notes timestamp. */
  isoZ(d: Date): string {
    return d.toISOString().slice(0, 19) + 'Z'
  }
}

export { seededRandom } from '../../seeded-random'

/** Picks one element with `rand`. */
export function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)]!
}

/** What every content template gets: the clock and where the projects live. */
export interface DemoContext {
  clock: DemoClock
  /** Absolute demo folder. */
  root: string
  /** Absolute project folders by name. */
  paths: { muse: string; dya: string; atlas: string }
  /** Signs the operator's decisions (absent: they are unsigned, shown as forged). */
  signer?: DecisionSigner
}

/** A file to write: path relative to its project folder, and its text. */
export type DemoFiles = Record<string, string>
