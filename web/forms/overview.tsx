// The overview tables at the top of /com and /port (one row per interface or thread, to scan instead
// of scroll) and the step from a row to its block: the block's heading is scrolled into view and
// takes the focus, so a keyboard or screen-reader user lands where a sighted one looks.
import type { ComponentChildren } from 'preact';
import { afterNextFrame, showAllSteps } from '../shell/in-steps.tsx';
import { TableView } from './table-view.tsx';

export interface OverviewColumn {
  key: string;
  head: string;
  /** a count: right-aligned, in tabular figures */
  num?: boolean;
}

export interface OverviewRow {
  key: string;
  /** data attributes of the row, for tests and styles */
  attrs?: Record<string, string | number | boolean | undefined>;
  cells: Record<string, ComponentChildren>;
}

/**
 * Moves to a block of the page: its heading (tabIndex -1) scrolls to just below the console's top bar
 * (sticky, and as tall as its wrapped lines on a phone) and takes the focus. A block the page has
 * not rendered yet (web/shell/in-steps.tsx) is rendered with every other step first.
 */
export function goToBlock(headingId: string, again = true): void {
  const heading = document.getElementById(headingId);
  if (!heading) {
    if (!again) return;
    showAllSteps();
    afterNextFrame(() => goToBlock(headingId, false));
    return;
  }
  const bar = document.querySelector('.top')?.getBoundingClientRect().bottom ?? 0;
  window.scrollBy({ top: heading.getBoundingClientRect().top - Math.max(0, bar) - 8, behavior: 'instant' });
  heading.focus({ preventScroll: true });
}

/** A row's name as a button that moves to its block further down the page. */
export function BlockLink({ headingId, children }: { headingId: string; children: ComponentChildren }) {
  return (
    <button type="button" class="link" data-go={headingId} onClick={() => goToBlock(headingId)}>
      {children}
    </button>
  );
}

/**
 * The overview card of a page (`<name>-overview`): its title, a hint, and the table in its own scroll
 * box (a phone scrolls it sideways, not the page), named by the title.
 */
export function OverviewCard(props: {
  name: string;
  title: string;
  hint: string;
  columns: OverviewColumn[];
  rows: OverviewRow[];
  /** what the table's rows can be asked to do together, under the table */
  actions?: ComponentChildren;
}) {
  const id = `${props.name}-overview`;
  return (
    <section class="card group" aria-labelledby={id} data-block={id}>
      <h2 id={id}>{props.title}</h2>
      <p class="hint">{props.hint}</p>
      <OverviewTable labelledBy={id} {...props} />
      {props.actions && <div class="actions">{props.actions}</div>}
    </section>
  );
}

function OverviewTable({ labelledBy, columns, rows, name }: { labelledBy: string; columns: OverviewColumn[]; rows: OverviewRow[]; name: string }) {
  return (
    <TableView labelledBy={labelledBy}>
      <table class="data-table" data-overview={name}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" class={c.num ? 'num' : undefined}>
                {c.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} {...r.attrs}>
              {columns.map((c, i) =>
                i === 0 ? (
                  <th key={c.key} scope="row" data-col={c.key}>
                    {r.cells[c.key]}
                  </th>
                ) : (
                  <td key={c.key} data-col={c.key} class={c.num ? 'num' : undefined}>
                    {r.cells[c.key]}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </TableView>
  );
}
