// The "Read databases" action of /db for InfluxDB (spec §7 pew_getinflux): runs on the saved
// settings like a test (the unsaved-changes question first), lists the server's databases and the
// measurements of the saved database, and puts the one picked into its field.
import type { InfluxList } from '../../device/model/influx-list.ts';
import { readInfluxList } from '../api/influx.ts';
import { TestAction } from '../forms/test-action.tsx';
import { LL } from '../i18n/translate.ts';
import { section, setField } from '../state/sections.ts';
import { readOnly } from '../state/session.ts';

const KEY = 'pew_nosql';

function Names({ title, names, path, kind }: { title: string; names: string[]; path: 'instance_name' | 'measurement'; kind: string }) {
  const t = LL.value.fields.pew_nosql.influx;
  const current = section(KEY).temp.value[path];
  return (
    <>
      <p>{title}</p>
      {names.length === 0 ? (
        <p class="hint" data-none={kind}>
          {t.none()}
        </p>
      ) : (
        <ul class="downloads" data-list={kind}>
          {names.map((name) => (
            <li key={name}>
              <button
                type="button"
                class={current === name ? 'btn small primary' : 'btn small'}
                data-pick={name}
                aria-pressed={current === name}
                title={t.pick({ name })}
                disabled={readOnly.value}
                onClick={() => setField(KEY, path, name)}
              >
                {name}
              </button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function InfluxResult({ result }: { result: InfluxList }) {
  const t = LL.value.fields.pew_nosql.influx;
  return (
    <div data-influx-list>
      <Names title={t.databases()} names={result.databases} path="instance_name" kind="databases" />
      <Names title={t.measurements()} names={result.measurements} path="measurement" kind="measurements" />
    </div>
  );
}

export function InfluxReader() {
  const t = LL.value.fields.pew_nosql.influx;
  return (
    <TestAction
      sections={[KEY]}
      run={readInfluxList}
      action="read-influx"
      attrs={{ 'data-influx': 1 }}
      texts={{ test: t.read, testing: t.reading, testNote: t.note }}
      Result={InfluxResult}
    />
  );
}
