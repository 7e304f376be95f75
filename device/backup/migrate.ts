// The migration table of the backup content (spec §5 version compatibility): each entry turns the
// content of one format version into the next, so a file of any older version reaches the current
// one step by step. The header (format.ts) is read the same way in every version.
//
// Format 1 (app 0.x): `{ settings: {<section>: …}, certificates: {<section>: {<name>: base64}},
// webfiles: {<name>: base64}, scripts: {<name>: base64} }`, without log configuration files.
// Format 2 (current): `{ sections: {<section>: …}, files: [{ folder, path, data }] }`.
import * as v from 'valibot';
import type { ContentJson } from './content.ts';
import { BackupRefused, FORMAT_VERSION } from './format.ts';

const files = v.record(v.string(), v.string());
const format1 = v.strictObject({
  settings: v.record(v.string(), v.unknown()),
  certificates: v.optional(v.record(v.string(), files), {}),
  webfiles: v.optional(files, {}),
  scripts: v.optional(files, {}),
});

/** from → the step to from + 1 */
export const MIGRATIONS: Record<number, (content: unknown) => unknown> = {
  1: (content) => {
    const parsed = v.safeParse(format1, content);
    if (!parsed.success) throw new BackupRefused('content', 'The backup content has an unexpected shape');
    const c = parsed.output;
    return {
      sections: c.settings,
      files: [
        ...Object.entries(c.certificates).flatMap(([section, names]) =>
          Object.entries(names).map(([name, data]) => ({ folder: 'certs' as const, path: `${section}/${name}`, data })),
        ),
        ...Object.entries(c.webfiles).map(([path, data]) => ({ folder: 'http' as const, path, data })),
        ...Object.entries(c.scripts).map(([path, data]) => ({ folder: 'scripts' as const, path, data })),
      ],
    } satisfies ContentJson;
  },
};

/** The content of format `from` in the current format's shape (still to be checked by toContent). */
export function migrate(from: number, content: unknown): unknown {
  let c = content;
  for (let f = from; f < FORMAT_VERSION; f++) {
    const step = MIGRATIONS[f];
    if (!step) throw new BackupRefused('unknown_version', `Backups of format ${from} cannot be restored`);
    c = step(c);
  }
  return c;
}
