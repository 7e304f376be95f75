// The custom headers of /httpc (pew_httpc.headers, device/model/sections/httpc.ts): up to 4 name
// and value pairs, each a row of the schema's fields (the value a password field while marked
// secret, device/model/secrets.ts), added and removed on the page like the IEC connections.
import { batch } from '@preact/signals';
import { withDefaults } from '../../device/model/section.ts';
import { HEADERS_MAX, headerSchema } from '../../device/model/sections/httpc.ts';
import { Field, problemAt } from '../forms/field.tsx';
import { errorText, LL } from '../i18n/translate.ts';
import { section, setField } from '../state/sections.ts';
import { readOnly } from '../state/session.ts';
import { WIDE } from './service-parts.tsx';

const KEY = 'pew_httpc';
type Value = Record<string, unknown>;

const headersOf = (v: Value) => (Array.isArray(v.headers) ? v.headers : []) as Value[];

/** Replaces the header list; the server's issues name list positions, so they are dropped. */
function setHeaders(list: Value[]): void {
  batch(() => {
    setField(KEY, 'headers', list);
    section(KEY).serverIssues.value = [];
  });
}

export function HttpHeaders() {
  const t = LL.value.service.headers;
  const list = headersOf(section(KEY).temp.value);
  const full = list.length >= HEADERS_MAX;
  const listProblem = problemAt(KEY, 'headers');
  const add = () => {
    if (!full) setHeaders([...list, withDefaults(headerSchema, {}) as Value]);
  };
  return (
    <div style={{ ...WIDE, display: 'grid', gap: '0.6rem' }} data-headers={list.length}>
      <div class="row between">
        <h3 class="sub">{LL.value.fields.pew_httpc.headers.label()}</h3>
        <button type="button" class="btn small" data-action="add-header" disabled={readOnly.value || full} onClick={add}>
          {t.add()}
        </button>
      </div>
      <p class="hint" data-count>
        {list.length === 0 ? t.none() : t.count({ count: list.length, max: HEADERS_MAX })}
      </p>
      {full && (
        <p class="note" data-note="max-headers">
          {errorText('too_many', { max: HEADERS_MAX })}
        </p>
      )}
      {listProblem && (
        <p class="error" role="alert" data-error="headers">
          {errorText(listProblem.code, listProblem.params)}
        </p>
      )}
      {list.map((_, i) => (
        <div key={i} class="grid" role="group" aria-labelledby={`httpc-header-${i}`} data-header={i}>
          <div class="row between sub">
            <h4 id={`httpc-header-${i}`} class="sub">
              {t.header({ n: i + 1 })}
            </h4>
            <button
              type="button"
              class="btn small"
              data-action="remove-header"
              disabled={readOnly.value}
              onClick={() => setHeaders(headersOf(section(KEY).temp.value).filter((_, j) => j !== i))}
            >
              {t.remove()}
            </button>
          </div>
          <Field section={KEY} path={`headers.${i}.name`} />
          <Field section={KEY} path={`headers.${i}.value`} />
          <Field section={KEY} path={`headers.${i}.secret`} />
        </div>
      ))}
    </div>
  );
}
