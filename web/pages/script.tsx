// /script (spec §2, §3 Script: pew_script and script_file; §5 script extension .cfg; §7
// get_defscript, writefile, download/pew_script.cfg, upload; §9 FTP send: cycle minimum 60, base
// time up to 86400, 9 repeats, extension replacement 7): the script's settings, the editor of the
// active script's text (the script_file section, saved with the page or written at once with
// "Write file"), and the script files of the unit: upload, download, and choosing the active one.
import { batch } from '@preact/signals';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { parseScript } from '../../device/model/script/parse.ts';
import { SCRIPT_EXTENSION } from '../../device/model/sections/script.ts';
import { SCRIPT_MAX } from '../../device/model/sections/scriptfile.ts';
import { get, mode } from '../api/client.ts';
import { apiUrl } from '../api/mode.ts';
import { getDefaultScript, getScripts, readScript, type ScriptEntry, scriptUrl, uploadFile, writeScript } from '../api/uploads.ts';
import { failureText } from '../forms/certificates.tsx';
import { Field, FieldGroup, problemAt } from '../forms/field.tsx';
import { fieldText } from '../i18n/field-text.ts';
import { errorText, LL } from '../i18n/translate.ts';
import { useWorded } from '../i18n/worded.ts';
import { ask } from '../state/confirm.ts';
import { notify } from '../state/notify.ts';
import { saveSections } from '../state/save-sections.ts';
import { section, setField } from '../state/sections.ts';
import { readOnly } from '../state/session.ts';
import css from '../styles/files.css' with { type: 'text' };
import { ScriptGutter, ScriptProblems } from './script-check.tsx';
import { ScriptStatusBlock } from './script-status.tsx';

const P = 'pew_script';
const F = 'script_file';
const utf8 = new TextEncoder();
/** the size the script_file schema counts: UTF-8 as the text travels in JSON (scriptfile.ts) */
const encodedSize = (s: string) => utf8.encode(JSON.stringify(s)).length - 2;

/** Puts the daemon's script_file into both copies (after a write or an upload of the active script). */
async function acceptScriptText(): Promise<void> {
  const saved = await get<Record<string, unknown>>(`/config/${F}`);
  const s = section(F);
  batch(() => {
    s.saved.value = saved;
    s.temp.value = saved;
    s.serverIssues.value = [];
  });
}

function Editor({ onWritten }: { onWritten: () => void }) {
  const t = LL.value.script;
  const ro = readOnly.value;
  const [busy, setBusy] = useState(false);
  const content = (section(F).temp.value.content as string | undefined) ?? '';
  // the parser's errors are listed by the check below; other problems of the text (its size) show here
  const fieldProblem = problemAt(F, 'content');
  const problem = fieldProblem?.code === 'script_invalid' ? undefined : fieldProblem;
  const text = fieldText(F, 'content');
  const id = `f-${F}-content`;
  const area = useRef<HTMLTextAreaElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const parsed = useMemo(() => parseScript(content), [content]);
  const lineCount = content.split(/\r\n|\r|\n/).length;

  const loadDefault = async () => {
    if (content.trim() !== '' && !(await ask({ title: t.defaultTitle(), text: t.defaultText(), yes: t.replace(), no: t.keep() }))) return;
    try {
      setField(F, 'content', (await getDefaultScript()).content);
    } catch (e) {
      notify('error', failureText(t.readFailed(), e));
    }
  };

  const write = async () => {
    setBusy(true);
    try {
      // the text goes into the file the saved pew_script names: an edited name is saved first
      if (section(P).changed.value) await saveSections([P]);
      const r = await writeScript(content);
      await acceptScriptText();
      notify('info', t.written({ name: r.name }));
      onWritten();
    } catch (e) {
      notify('error', failureText(LL.value.form.notice.saveFailed(), e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class={`script-editor field ${problem ? 'has-error' : ''}`} data-field="content">
      <label for={id}>{text.label}</label>
      <div class="script-text">
        <ScriptGutter lines={lineCount} errors={parsed.errors} scrollTop={scrollTop} />
        <textarea
          id={id}
          ref={area}
          name="content"
          spellcheck={false}
          readOnly={ro}
          value={content}
          aria-invalid={problem || parsed.errors.length > 0 ? true : undefined}
          aria-describedby={`${id}-help ${id}-check${problem ? ` ${id}-err` : ''}`}
          onInput={(e) => setField(F, 'content', e.currentTarget.value)}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
        />
      </div>
      <small id={`${id}-help`} class="hint">
        {[text.help, t.count({ count: encodedSize(content), max: SCRIPT_MAX })].filter(Boolean).join(' · ')}
      </small>
      {problem && (
        <p id={`${id}-err`} class="error" role="alert">
          {errorText(problem.code, problem.params)}
        </p>
      )}
      <ScriptProblems errors={parsed.errors} area={area} id={`${id}-check`} />
      <div class="actions">
        {!ro && (
          <button type="button" class="btn" data-action="load-default" onClick={() => void loadDefault()}>
            {t.loadDefault()}
          </button>
        )}
        {!ro && (
          <button
            type="button"
            class="btn primary"
            data-action="write-file"
            disabled={
              busy || problem !== undefined || section(F).validation.value.invalid || (section(P).temp.value.enable_script === true && parsed.errors.length > 0)
            }
            onClick={() => void write()}
          >
            {t.write()}
          </button>
        )}
        <a class="btn" data-action="download-script" href={apiUrl(mode.value, '/download/pew_script.cfg')} download>
          {t.download()}
        </a>
      </div>
    </div>
  );
}

function ScriptFiles({ files, refresh }: { files: { active: string; files: ScriptEntry[] } | null; refresh: () => Promise<void> }) {
  const t = LL.value.script;
  const ro = readOnly.value;
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useWorded();

  const upload = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    setProblem(null);
    setBusy(true);
    try {
      await uploadFile({ kind: 'script', name: file.name }, file);
      notify('info', t.uploaded({ name: file.name }));
      // the active script's text changed on the unit too
      if (file.name === files?.active && !section(F).changed.value) await acceptScriptText();
    } catch (e) {
      setProblem((L) => failureText(L.script.uploadFailed(), e));
      notify('error', failureText(t.uploadFailed(), e));
    } finally {
      setBusy(false);
      await refresh();
    }
  };

  const use = async (name: string) => {
    try {
      const text = await readScript(name);
      batch(() => {
        setField(P, 'script_file', name);
        setField(F, 'content', text);
      });
    } catch (e) {
      notify('error', failureText(t.readFailed(), e));
    }
  };

  const chosen = section(P).temp.value.script_file as string;
  return (
    <div class="script-files">
      {!ro && (
        <div class="field" data-field="upload-script">
          <label for="script-upload">{t.upload()}</label>
          <div class="control">
            <input type="file" id="script-upload" accept={SCRIPT_EXTENSION} disabled={busy} onChange={(e) => void upload(e.currentTarget)} />
          </div>
          {problem && (
            <p class="error" role="alert">
              {problem}
            </p>
          )}
        </div>
      )}
      {files !== null && files.files.length === 0 && (
        <p class="hint" data-scripts-empty>
          {t.noFiles()}
        </p>
      )}
      {files !== null && files.files.length > 0 && (
        <table class="file-list">
          <tbody>
            {files.files.map((f) => (
              <tr key={f.name} data-script={f.name}>
                <td>
                  {f.name}
                  {f.name === files.active && (
                    <span class="badge" data-active>
                      {' '}
                      {t.active()}
                    </span>
                  )}
                </td>
                <td>{t.size({ size: f.size })}</td>
                <td class="actions">
                  <a class="btn small" href={scriptUrl(f.name)} download={f.name}>
                    {t.download()}
                  </a>
                  {!ro && (
                    <button type="button" class="btn small" data-action="use-script" aria-pressed={f.name === chosen} onClick={() => void use(f.name)}>
                      {t.use()}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export default function ScriptPage() {
  const t = LL.value.script;
  const [files, setFiles] = useState<{ active: string; files: ScriptEntry[] } | null>(null);
  // the answer of the latest ask only: two saves in a row ask twice, and an earlier answer that comes
  // last must not put back the list from before the second save
  const asked = useRef(0);
  const refresh = () => {
    const n = ++asked.current;
    const take = (f: { active: string; files: ScriptEntry[] }) => {
      if (n === asked.current) setFiles(f);
    };
    return getScripts().then(take, () => take({ active: '', files: [] }));
  };
  // the list follows saves of the page too (a save writes the active file)
  const savedText = section(F).saved.value;
  const savedName = section(P).saved.value.script_file;
  useEffect(() => {
    void refresh();
  }, [savedText, savedName]);
  return (
    <div class="service" data-page="script">
      <style>{css as string}</style>
      <FieldGroup title={t.general()} id="script-general">
        <Field section={P} path="enable_script" />
        <Field section={P} path="script_file" />
      </FieldGroup>
      <FieldGroup title={t.transmission()} id="script-ftp">
        <Field section={P} path="ftp_transmission" />
        <Field section={P} path="transmission_btime" unit="s" />
        <Field section={P} path="ftp_send_cycle" unit="s" />
        <Field section={P} path="ftp_repeats" />
        <Field section={P} path="file_ext_replacement" />
      </FieldGroup>
      <ScriptStatusBlock />
      <FieldGroup title={t.editor()} id="script-editor">
        <Editor onWritten={() => void refresh()} />
      </FieldGroup>
      <FieldGroup title={t.files()} id="script-files">
        <ScriptFiles files={files} refresh={refresh} />
      </FieldGroup>
    </div>
  );
}
