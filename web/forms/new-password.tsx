// A new password with its confirmation and the rules of spec §5 checked live, one by one, as the
// technician types (the daemon checks the same rules with the same schema on submit).
import { passwordRules } from '../../device/model/users.ts';
import { LL } from '../i18n/translate.ts';

export interface NewPasswordProps {
  /** prefix of the element ids (several forms on one page) */
  id: string;
  label: string;
  value: string;
  confirm: string;
  onValue(v: string): void;
  onConfirm(v: string): void;
}

export function NewPassword(p: NewPasswordProps) {
  const t = LL.value.users;
  const rules = passwordRules(p.value);
  const mismatch = p.confirm !== '' && p.confirm !== p.value;
  return (
    <>
      <div class="field">
        <label for={`${p.id}-pw`}>{p.label}</label>
        <div class="control">
          <input
            id={`${p.id}-pw`}
            type="password"
            autocomplete="new-password"
            maxLength={40}
            value={p.value}
            aria-describedby={`${p.id}-rules`}
            onInput={(e) => p.onValue(e.currentTarget.value)}
          />
        </div>
        <p class="hint" id={`${p.id}-rules-title`}>
          {t.rulesTitle()}
        </p>
        <ul class="pw-rules" id={`${p.id}-rules`} aria-live="polite" data-rules>
          {(Object.keys(rules) as (keyof typeof rules)[]).map((k) => (
            <li key={k} class={rules[k] ? 'ok' : ''} data-rule={k} data-ok={rules[k] ? 'yes' : 'no'}>
              {t.rules[k]()}
            </li>
          ))}
        </ul>
      </div>
      <div class="field">
        <label for={`${p.id}-confirm`}>{t.confirmPassword()}</label>
        <div class="control">
          <input
            id={`${p.id}-confirm`}
            type="password"
            autocomplete="new-password"
            maxLength={40}
            value={p.confirm}
            onInput={(e) => p.onConfirm(e.currentTarget.value)}
          />
        </div>
        {mismatch && (
          <p class="error" role="alert">
            {t.mismatch()}
          </p>
        )}
      </div>
    </>
  );
}

/** Every rule met and both entries equal. */
export const newPasswordReady = (pw: string, confirm: string) => Object.values(passwordRules(pw)).every(Boolean) && pw === confirm;
