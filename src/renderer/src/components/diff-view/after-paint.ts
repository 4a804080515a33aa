/**
 * Work that must not delay a paint. `afterPaint` queues a step that runs in a task after the next
 * frame has been drawn (an animation frame, then a task), one queued step per frame across the
 * whole page, so the first screen is on the glass before any follow-up work runs and no frame
 * waits on more than one step. The diff view's progressive rendering and colouring go through it.
 */

const queue: (() => void)[] = []
let scheduled = false

/** Requests the frame after which the next queued step runs. */
function pump(): void {
  if (scheduled || queue.length === 0) return
  scheduled = true
  requestAnimationFrame(() => {
    setTimeout(() => {
      scheduled = false
      queue.shift()?.()
      pump()
    }, 0)
  })
}

/** Runs `step` after the next paint (after the steps queued before it); returns a function that cancels it. */
export function afterPaint(step: () => void): () => void {
  const job = (): void => step()
  queue.push(job)
  pump()
  return () => {
    const at = queue.indexOf(job)
    if (at >= 0) queue.splice(at, 1)
  }
}
