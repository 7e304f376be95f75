// The e-mail client of the daemon (spec §3 pew_email, §5, §9 SMTP control register 230 + 7):
// follows the saved pew_email and pew; with enable_email on, mails the PLC asks for wait in a
// crash-safe queue (<dataDir>/queues/email) and are sent in order (run.ts). docs/services.md.
import type { Email } from '../model/sections/email.ts';
import { emailTarget } from '../service-runtime/job-targets.ts';
import { type QueuedServiceDeps, type ServiceEngine, startQueuedService } from '../service-runtime/queued-engine.ts';
import { isMailJob, type MailCounter, type MailJob, MailRun, type MailShared } from './run.ts';

export function startEmail(deps: QueuedServiceDeps): Promise<ServiceEngine> {
  return startQueuedService<MailJob, MailCounter, MailShared, Email>(deps, {
    service: 'email',
    section: 'pew_email',
    enabled: (e) => e.enable_email,
    target: emailTarget,
    counters: ['sent'],
    isJob: isMailJob,
    extra: () => ({}),
    run: async (d, shared, e, pew) => {
      const run = new MailRun(d, shared, e, pew);
      run.start();
      return run;
    },
  });
}
