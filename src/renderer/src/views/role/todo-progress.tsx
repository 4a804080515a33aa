/** TODO progress of a role file: overall and per sub-header group, each with a small bar. */
import type { TodoProgress } from '../../../../shared/api'

function Bar({ done, total }: { done: number; total: number }) {
  const pct = total ? Math.round((done / total) * 100) : 0
  return (
    <span className="todo-bar" aria-hidden>
      <span className="todo-bar-fill" style={{ width: `${pct}%` }} />
    </span>
  )
}

/** The panel; clicking a group scrolls to its first item. */
export function TodoProgressPanel({ todos, onJump }: { todos: TodoProgress; onJump: (line: number) => void }) {
  const total = todos.open + todos.done
  return (
    <section className="rail-panel" data-testid="todo-progress" aria-labelledby="todo-progress-title">
      <h3 id="todo-progress-title" className="rail-title">
        TODO
        <span className="rail-count num" data-testid="todo-total">
          {todos.done}/{total}
        </span>
      </h3>
      {total === 0 ? (
        <p className="muted rail-empty">No TODO items.</p>
      ) : (
        <>
          <div className="todo-overall" title={`${todos.done} done, ${todos.open} open`}>
            <Bar done={todos.done} total={total} />
            <span className="num">{Math.round((todos.done / total) * 100)}%</span>
          </div>
          {/* One unnamed group is the overall bar again; show groups only when they say more. */}
          {(todos.groups.length > 1 || todos.groups[0]?.group) && (
            <ul className="todo-groups">
              {todos.groups.map((g, i) => {
                const first = todos.items.find((it) => it.group === g.group)
                const n = g.open + g.done
                return (
                  <li key={`${g.group ?? ''}-${i}`}>
                    <button
                      type="button"
                      className="todo-group"
                      onClick={() => first && onJump(first.line)}
                      title={g.group ?? 'Items before any sub-header'}
                      data-testid="todo-group"
                    >
                      <span className="todo-group-name ellipsis">{g.group ?? 'TODO'}</span>
                      <span className="num todo-group-count">
                        {g.done}/{n}
                      </span>
                      <Bar done={g.done} total={n} />
                    </button>
                  </li>
                )
              })}
            </ul>
          )}
        </>
      )}
    </section>
  )
}
