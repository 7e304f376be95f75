// The control register block a service reserves on the PLC (spec §9 offsets) and the banner that
// appears when two services' blocks overlap.

import { LL } from '../i18n/translate.ts';
import { allSections } from '../state/sections.ts';

export function RegisterFootprint({ start, length }: { start: number; length: number }) {
  if (!Number.isInteger(start)) return null;
  return (
    <p class="footprint" data-footprint>
      {LL.value.form.footprint({ first: start, last: start + length - 1, count: length })}
    </p>
  );
}

/** spec §3 "a multiple-register banner": shown while any two blocks overlap. */
export function MultipleRegisterBanner() {
  const clash = allSections().some((s) =>
    s.shownValidation.value.issues.some(
      (i) => i.code === 'addresses_overlap' && /plc_control_dt|plc_status_dt|rtc_control_rtc_r|mem_|plc_ctrl_wr/.test(i.path),
    ),
  );
  if (!clash) return null;
  return (
    <p class="banner warning" role="alert" data-banner="registers">
      {LL.value.form.multipleRegisters()}
    </p>
  );
}
