import { useLocation } from 'preact-iso/router';
import { LL } from '../i18n/translate.ts';

/** Any path that is not a route of spec §2. */
export default function NotFound() {
  const t = LL.value.notFound;
  return (
    <div class="card" data-page="notfound">
      <p>{t.text({ path: useLocation().path })}</p>
      <a class="btn" href="#/info">
        {t.back()}
      </a>
    </div>
  );
}
