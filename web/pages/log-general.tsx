// /log general settings (spec §3 "Data logger (pew_log)" settings, every field but log_def): the
// logger switch, storage, CSV layout, time stamps, the write status registers and the PLC control
// register with their DT footprint (spec §9 log memory write 4), and the CSV format files on the unit.
import { useEffect, useState } from 'preact/hooks';
import { MEM_REGISTERS } from '../../device/model/sections/log.ts';
import { fetchFormatFiles, formatFileUrl } from '../api/logfiles.ts';
import { FieldGroup, useFieldValues } from '../forms/field.tsx';
import { RegisterFootprint } from '../forms/register.tsx';
import { LL } from '../i18n/translate.ts';
import { KEY } from '../log/page-state.ts';
import { type RegisterBlock, registerBlocks } from '../log/registers.ts';
import { LogField } from './log-field.tsx';

function Footprint({ block }: { block: RegisterBlock }) {
  if (block.length > 1) return <RegisterFootprint start={block.start} length={block.length} />;
  return (
    <p class="footprint" data-footprint>
      {LL.value.logger.register({ first: block.start, count: 1 })}
    </p>
  );
}

/** The format files the unit has (GET /config/get_cfg), each downloadable; nothing when the call fails. */
function FormatFiles() {
  const [files, setFiles] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    fetchFormatFiles().then(
      (f) => {
        if (live) setFiles(f);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, []);
  if (files.length === 0) return null;
  return (
    <p class="note" data-formatfiles>
      {files.map((f, i) => (
        <span key={f}>
          {i > 0 && ', '}
          <a href={formatFileUrl(f)} download={f}>
            {f}
          </a>
        </span>
      ))}
    </p>
  );
}

const REGISTER_PATHS = ['plc_ctrl_wr', ...MEM_REGISTERS];

export function LogGeneral() {
  const t = LL.value.logger;
  const f = t.generalFields;
  // the registers alone: a key typed into one of 700 points does not re-render the general settings
  const [ctrlWr, ...memRegs] = useFieldValues(KEY, REGISTER_PATHS);
  const mem = registerBlocks(memRegs as number[]);
  const ctrl = registerBlocks([ctrlWr as number]);
  return (
    <FieldGroup title={t.titles.general()} id="log-general">
      <LogField path="enable_log" text={f.enable_log} />
      <LogField path="storage" text={f.storage} />
      <LogField path="header" text={f.header} />
      <LogField path="formatfile" text={f.formatfile} />
      <FormatFiles />
      <LogField path="csv_separator" text={f.csv_separator} />
      <LogField path="dec_separator" text={f.dec_separator} />
      <LogField path="midnight_to_daybefore" text={f.midnight_to_daybefore} />
      <LogField path="plc_rtc_dt" text={f.plc_rtc_dt} />
      <LogField path="delete_old_files" text={f.delete_old_files} />
      <LogField path="enable_mem_ctrl" text={f.enable_mem_ctrl} />
      {MEM_REGISTERS.map((k) => (
        <LogField key={k} path={k} text={f[k]} />
      ))}
      {mem.map((b) => (
        <Footprint key={b.start} block={b} />
      ))}
      <LogField path="enable_plc_ctrl" text={f.enable_plc_ctrl} />
      <LogField path="plc_ctrl_wr" text={f.plc_ctrl_wr} />
      {ctrl.map((b) => (
        <Footprint key={b.start} block={b} />
      ))}
    </FieldGroup>
  );
}
