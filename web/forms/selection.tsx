// Checked rows of a file list (the log files of a storage, the REST server's HTTP files): the set of
// checked names, kept to the names still listed after a refresh, the "all" checkbox of the header
// and one checkbox per row; the user role sees them disabled (it deletes nothing).
import { useState } from 'preact/hooks';
import { readOnly } from '../state/session.ts';

export interface Selection {
  checked: ReadonlySet<string>;
  /** every listed name is checked (and there is one) */
  all: boolean;
  toggle(name: string): void;
  toggleAll(): void;
  clear(): void;
  /** keeps only the names still listed */
  keep(listed: readonly string[]): void;
}

export function useSelection(names: readonly string[]): Selection {
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const all = names.length > 0 && names.every((n) => checked.has(n));
  return {
    checked,
    all,
    toggle(name) {
      const next = new Set(checked);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      setChecked(next);
    },
    toggleAll: () => setChecked(all ? new Set() : new Set(names)),
    clear: () => setChecked(new Set()),
    keep: (listed) => setChecked((c) => new Set([...c].filter((n) => listed.includes(n)))),
  };
}

export const CheckAll = ({ sel, label }: { sel: Selection; label: string }) => (
  <input type="checkbox" aria-label={label} checked={sel.all} disabled={readOnly.value} onChange={sel.toggleAll} />
);

export const CheckRow = ({ sel, name, label }: { sel: Selection; name: string; label: string }) => (
  <input type="checkbox" aria-label={label} checked={sel.checked.has(name)} disabled={readOnly.value} onChange={() => sel.toggle(name)} />
);
