import { mode } from '../api/client.ts';
import { apiUrl } from '../api/mode.ts';
import { LL } from '../i18n/translate.ts';

/** The download area of a service page (spec §2, §7 example zip files). */
export function DownloadArea({ kinds }: { kinds: readonly string[] }) {
  const t = LL.value.service;
  const names = t.examples as unknown as Record<string, (() => string) | undefined>;
  return (
    <section class="card group" aria-labelledby="downloads-title">
      <h2 id="downloads-title">{t.downloads()}</h2>
      <ul class="downloads">
        {kinds.map((k) => (
          <li key={k}>
            <a class="btn" href={apiUrl(mode.value, `/download/examples/${k}.zip`)} download={`example_${k}.zip`}>
              {names[k] ? names[k]() || k : k}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
