import type { ComponentChildren } from 'preact';

/**
 * A table that scrolls inside its own box on a narrow screen. The box takes the keyboard focus (and
 * is named by its section's heading) so that a keyboard user can scroll it with the arrow keys.
 */
export function TableView({ labelledBy, children }: { labelledBy: string; children: ComponentChildren }) {
  return (
    <div class="table-view" role="group" tabIndex={0} aria-labelledby={labelledBy}>
      {children}
    </div>
  );
}
