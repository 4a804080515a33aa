import { describe, expect, it } from 'vitest'
import { editorCommand, launchEditor, splitCommand } from './open-in-editor'

describe('open in editor', () => {
  it('jumps to the line in known GUI editors', () => {
    expect(editorCommand('/p/.muse/build.md', 42, { VISUAL: 'code --wait' }, 'linux')).toEqual({
      command: 'code',
      args: ['--wait', '-g', '/p/.muse/build.md:42']
    })
    expect(editorCommand('/p/a b.md', 3, { MUSTER_EDITOR: '"/Applications/Sublime Text.app/subl"', EDITOR: 'vim' }, 'darwin')).toEqual({
      command: '/Applications/Sublime Text.app/subl',
      args: ['/p/a b.md:3']
    })
  })

  it('passes the file as one argument to unknown editors and falls back to the platform opener', () => {
    expect(editorCommand('/p/x.md', 1, { EDITOR: 'gedit' }, 'linux')).toEqual({ command: 'gedit', args: ['/p/x.md'] })
    expect(editorCommand('/p/x.md', 1, {}, 'linux')).toEqual({ command: 'xdg-open', args: ['/p/x.md'] })
    expect(editorCommand('/p/x.md', 1, {}, 'darwin')).toEqual({ command: 'open', args: ['/p/x.md'] })
  })

  it('refuses terminal editors with advice', () => {
    expect(() => editorCommand('/p/x.md', 1, { EDITOR: 'nvim' }, 'linux')).toThrow(/MUSTER_EDITOR/)
  })

  it('splits quoted command lines', () => {
    expect(splitCommand(`"C:/Program Files/ed.exe" -n 'two words'`)).toEqual(['C:/Program Files/ed.exe', '-n', 'two words'])
  })

  it('reports an editor that cannot start', async () => {
    await expect(launchEditor({ command: '/nonexistent/editor-xyz', args: [] })).rejects.toThrow(/cannot start editor/)
  })
})
