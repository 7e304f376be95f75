// One error type and one envelope for every answer that is not a success (architecture "Errors
// have codes"; security.md ERR-1: no stack traces, never an echoed secret).
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorCode, Issue, IssueParams } from '../model/issues.ts';
import type { IssuesBySection } from '../model/rules.ts';
import { isBodyAborted } from '../net/fetch/body.ts';
import { reportHttpFault } from '../net/guarded-http.ts';

/** An issue as the API reports it: the section it belongs to, the path inside it, code and params. */
export interface ApiIssue extends Issue {
  section?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: ErrorCode,
    message: string,
    readonly issues?: ApiIssue[],
    readonly params?: IssueParams,
  ) {
    super(message);
  }
}

export function envelope(code: ErrorCode, message: string, extra: { issues?: ApiIssue[]; params?: IssueParams } = {}) {
  return { error: { code, message, ...(extra.params ? { params: extra.params } : {}), ...(extra.issues ? { issues: extra.issues } : {}) } };
}

export function flattenIssues(bySection: IssuesBySection): ApiIssue[] {
  return Object.entries(bySection).flatMap(([section, list]) => list.map((i) => ({ section, ...i })));
}

export function invalid(issues: ApiIssue[]): ApiError {
  return new ApiError(400, 'invalid_input', 'The submitted settings are not valid', issues);
}

/**
 * The answer to an error of a route: its own code for an ApiError; 400 for a body the client cut
 * off (its business, not a fault: docs/hardening.md LOG-2); else 500 `internal`, a fault of
 * the request's connection (net/guarded-http.ts: logged and counted by the listener's guard, the
 * connection ended after the answer) or, outside a guarded listener, logged through `log`.
 */
export function errorResponse(c: Context, err: unknown, log?: (e: unknown) => void): Response {
  if (err instanceof ApiError) return c.json(envelope(err.code, err.message, { issues: err.issues, params: err.params }), err.status);
  if (isBodyAborted(err)) {
    c.header('Connection', 'close');
    return c.json(envelope('invalid_json', 'The request body ended before it was complete'), 400);
  }
  if (!reportHttpFault((c.env as { incoming?: unknown } | undefined)?.incoming, err)) log?.(err);
  return c.json(envelope('internal', 'Internal error'), 500);
}
