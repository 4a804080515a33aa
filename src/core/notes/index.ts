/**
 * The notes domain's face: Squad git notes (read, write, promote, watch). Code outside
 * src/core/notes imports only this.
 */
export { NotesWatcher } from './notes-watcher'
export { applyPromotion, planPromotion } from './promote'
export { readSquadNotes } from './read'
export { writeNote } from './write'
