import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tmpDir } from '../../../test/helpers/tmp'
import { openStateDb } from '../fleet/state-db'
import { chooseHub, describeChoice, noHubHint } from './hub-choice'
import { HubRegistry } from './hub-registry'

/** A state DB's registry in a fresh home, and a user home for MemPalace's resolution. */
function setup() {
  const dir = tmpDir()
  const registry = new HubRegistry(openStateDb(join(dir, 'muster')))
  const env = { HOME: join(dir, 'user') }
  return { dir, registry, env }
}

describe('chooseHub: named, the registered default, the environment, MemPalace default', () => {
  it('takes MemPalace default palace when nothing else is given or registered', () => {
    const { registry, env } = setup()
    const c = chooseHub(registry, {}, env)
    expect(c).toMatchObject({ location: join(env.HOME, '.mempalace', 'palace'), record: null, source: 'default' })
    expect(describeChoice(c)).toBe(`${c.location} (MemPalace's default palace)`)
  })

  it('the environment, then its config file, come before the default palace', () => {
    const { dir, registry, env } = setup()
    mkdirSync(join(env.HOME, '.mempalace'), { recursive: true })
    writeFileSync(join(env.HOME, '.mempalace', 'config.json'), JSON.stringify({ palace_path: join(dir, 'cfg') }))
    expect(chooseHub(registry, {}, env)).toMatchObject({ location: join(dir, 'cfg'), source: 'config' })
    expect(chooseHub(registry, {}, { ...env, MEMPALACE_PALACE_PATH: join(dir, 'e') })).toMatchObject({
      location: join(dir, 'e'),
      source: 'env'
    })
  })

  it('the hub registered first is the default, before the environment; a later one does not change it', () => {
    const { dir, registry, env } = setup()
    registry.add(join(dir, 'zeta'), 'zeta')
    registry.add(join(dir, 'alpha'), 'alpha')
    const withEnv = { ...env, MEMPALACE_PALACE_PATH: join(dir, 'e') }
    const c = chooseHub(registry, {}, withEnv)
    expect(c).toMatchObject({ name: 'zeta', location: join(dir, 'zeta'), source: 'registered' })
    expect(describeChoice(c)).toBe('zeta (registered first)')
    registry.remove('zeta')
    expect(chooseHub(registry, {}, withEnv)).toMatchObject({ name: 'alpha', source: 'registered' })
  })

  it('a named hub or palace wins; a palace that is registered is shown by its name; an unknown name lists the hubs', () => {
    const { dir, registry, env } = setup()
    registry.add(join(dir, 'a'), 'a')
    registry.add(join(dir, 'b'), 'b')
    expect(chooseHub(registry, { hub: 'B' }, env)).toMatchObject({ name: 'b', source: 'hub' })
    expect(chooseHub(registry, { palace: 'b' }, env, dir)).toMatchObject({ name: 'b', location: join(dir, 'b'), source: 'flag' })
    expect(chooseHub(registry, { palace: join(dir, 'c') }, env)).toMatchObject({ name: join(dir, 'c'), record: null, source: 'flag' })
    expect(() => chooseHub(registry, { hub: 'nope' }, env)).toThrow("unknown hub 'nope' (registered hubs: a, b; see: muster hubs list)")
    // a server URL: the registered record when there is one, else the URL as it is
    expect(chooseHub(registry, { hub: 'http://10.0.0.9:8765/' }, env)).toMatchObject({ location: 'http://10.0.0.9:8765', record: null })
  })

  it('without a registry (no state DB, or one that cannot be read) the environment decides', () => {
    const { dir, env } = setup()
    expect(chooseHub(null, {}, { ...env, MEMPALACE_PALACE_PATH: join(dir, 'e') })).toMatchObject({ source: 'env' })
    const broken = {
      inOrder: () => {
        throw new Error('no such table: hubs')
      },
      find: () => null,
      findByUrl: () => null,
      findByPalace: () => null
    }
    expect(chooseHub(broken, {}, env)).toMatchObject({ source: 'default' })
  })

  it('says why a hub without its file was chosen, which hubs exist and how to pick one', () => {
    const { dir, registry, env } = setup()
    const none = chooseHub(registry, {}, env)
    expect(noHubHint(registry, none)).toBe(
      "the default: MemPalace's default palace; no hub is registered; register one with muster hubs add DIR (--create makes it), or run muster demo"
    )
    registry.add(join(dir, 'a'), 'a')
    expect(noHubHint(registry, chooseHub(registry, {}, env))).toBe(
      'the default: registered first; registered hubs: a; pick one with --hub NAME (see: muster hubs list) or --palace DIR'
    )
  })
})
