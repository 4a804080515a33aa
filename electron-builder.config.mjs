/**
 * electron-builder's configuration: the installers `npm run dist` builds (scripts/dist.mjs runs
 * electron-builder with this file). AppImage and deb on Linux, dmg on macOS, NSIS on Windows,
 * each built on its own OS. `scripts/check-packaging.mjs` (part of `npm run lint`) checks it
 * statically: fuses, the native addon unpacked, every entry included.
 *
 * Why electron-builder rather than Electron Forge: it makes all four targets itself (Forge has
 * no AppImage or NSIS maker of its own), flips the fuses from one `electronFuses` block, embeds
 * the ASAR integrity hash the integrity fuse checks, and takes electron-vite's `out/` as it is.
 */

/**
 * The fuses flipped in the Electron binary at package time (before signing). See README
 * "Fuses". Every fuse is named, so an Electron default that changes cannot change the app.
 */
export const FUSES = {
  // ELECTRON_RUN_AS_NODE cannot turn the app into a plain Node that runs any script
  runAsNode: false,
  // Chromium's cookie store encrypted with the OS keychain (as Chrome does)
  enableCookieEncryption: true,
  // NODE_OPTIONS / NODE_EXTRA_CA_CERTS cannot inject code or certificates
  enableNodeOptionsEnvironmentVariable: false,
  // --inspect and friends (and SIGUSR1) cannot open a debugger on the main process
  enableNodeCliInspectArguments: false,
  // app.asar is checked against the hash embedded in the executable (macOS, Windows)
  enableEmbeddedAsarIntegrityValidation: true,
  // the app loads only from app.asar (no `app/` folder beside it, no default_app)
  onlyLoadAppFromAsar: true,
  // one V8 snapshot for every process, as Electron ships it
  loadBrowserProcessSpecificV8Snapshot: false,
  // file:// pages get no more than a browser gives them (the UI is served from app://)
  grantFileProtocolExtraPrivileges: false
}

/** The better-sqlite3 addon built for Electron's ABI (scripts/prepare-electron-native.mjs). */
export const ELECTRON_NATIVE = '.electron-native/**'

/**
 * koffi's prebuilt addon for this platform (a Node-API build: one binary serves Electron and Node),
 * which role-file edits use for the atomic exchange (src/core/muse/rename-exchange.ts).
 */
export const KOFFI_NATIVE = 'node_modules/@koromix/**'

/** The electron-builder configuration. */
const config = {
  appId: 'dev.muster.app',
  productName: 'Muster',
  copyright: 'Copyright © Muster contributors',
  directories: { output: 'dist', buildResources: 'resources' },
  // the app: the electron-vite build (main with its digest worker, preload, renderer), the
  // package.json, the rules template core/rules finds by walking up, and the Electron-ABI addon
  files: [
    'package.json',
    'out/main/**',
    'out/preload/**',
    'out/renderer/**',
    'resources/rules/**',
    ELECTRON_NATIVE,
    // the CLI ships apart (extraResources); node_modules' Node-ABI build and sources stay out
    '!out/cli/**',
    '!node_modules/better-sqlite3/{build,deps,src}/**',
    '!**/*.map'
  ],
  // native code cannot be loaded from inside an asar
  asarUnpack: [ELECTRON_NATIVE, KOFFI_NATIVE],
  // beside app.asar: tray and overlay icons, and the `muster` command line (run by the user's Node)
  extraResources: [
    { from: 'resources/tray', to: 'tray', filter: ['*.png'] },
    { from: 'resources/icon.png', to: 'icon.png' },
    { from: 'out/cli', to: 'cli/out/cli', filter: ['**/*', '!meta.json'] },
    { from: 'bin/muster.cjs', to: 'cli/bin/muster.cjs' },
    { from: 'resources/cli', to: 'cli', filter: ['muster', 'muster.cmd'] },
    { from: 'resources/rules', to: 'cli/resources/rules' },
    { from: '.cli-native', to: 'cli/native', filter: ['**/better_sqlite3.node'] },
    // koffi stays outside the CLI bundle (native): beside it, where its requires find it
    { from: 'node_modules/koffi', to: 'cli/node_modules/koffi', filter: ['**/*', '!vendor/**', '!doc/**', '!**/*.{cc,hh,c,h,txt}'] },
    { from: 'node_modules/@koromix', to: 'cli/node_modules/@koromix' }
  ],
  // node_modules keeps its Node build for tests and the CLI: the Electron build is prepared apart
  npmRebuild: false,
  electronFuses: FUSES,
  // muster:// links open the app (Info.plist, .desktop MimeType, Windows registry)
  protocols: [{ name: 'Muster link', schemes: ['muster'] }],
  mac: {
    category: 'public.app-category.developer-tools',
    target: ['dmg'],
    icon: 'resources/icon.png',
    hardenedRuntime: true
  },
  dmg: { title: 'Muster ${version}' },
  win: { target: ['nsis'], icon: 'resources/icon.png' },
  nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true, createDesktopShortcut: true },
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Development',
    icon: 'resources/icon.png',
    // the GUI is `muster-desktop`: `muster` is the command line
    executableName: 'muster-desktop',
    synopsis: "The operator's console for a fleet of coding agents",
    maintainer: 'Muster contributors <muster@users.noreply.github.com>'
  },
  // the deb also links /usr/bin/muster to the command line (scripts/dist.mjs writes these from
  // electron-builder's own templates plus that link)
  deb: { afterInstall: 'out/packaging/after-install.tpl', afterRemove: 'out/packaging/after-remove.tpl' }
}

export default config
