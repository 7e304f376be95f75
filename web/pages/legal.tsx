import { LL } from '../i18n/translate.ts';

/** Legal notes (spec §1): the product's licence terms and the open-source parts it ships. */
export default function Legal() {
  const t = LL.value.legal;
  return (
    <div class="card" data-page="legal">
      {t
        .text()
        .split('\n')
        .map((p, i) => (
          <p key={i}>{p}</p>
        ))}
      <h2>{t.components()}</h2>
      <ul>
        {['preact (MIT)', 'preact-iso (MIT)', '@preact/signals (MIT)', 'valibot (MIT)', 'typesafe-i18n (MIT)', 'hono (MIT)', '@hono/node-server (MIT)'].map(
          (c) => (
            <li key={c}>{c}</li>
          ),
        )}
      </ul>
    </div>
  );
}
