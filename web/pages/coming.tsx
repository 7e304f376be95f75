import { useLocation } from 'preact-iso/router';
import { pageOf } from '../pages.ts';
import { LL } from '../i18n/translate.ts';

/** Pages whose settings later work fills: the title (in the page bar) and a short note. */
export default function Coming() {
  const page = pageOf(useLocation().path);
  return (
    <div class="card coming" data-page={page?.id}>
      <p>{LL.value.coming.text()}</p>
    </div>
  );
}
