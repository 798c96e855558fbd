/**
 * Typed parse and input errors, in the manner of chessops: a parser returns a `Result`, never throws,
 * and its error carries a stable `code` and a one-line `message` that names the input and the fault.
 */

/** Stable error codes, one per kind of fault a user can make. */
export type ErrorCode =
  | 'bad-code'
  | 'bad-checksum'
  | 'bad-card'
  | 'bad-composition'
  | 'bad-layout'
  | 'bad-stock'
  | 'bad-move'
  | 'illegal-move'
  | 'bad-file'
  | 'bad-json'
  | 'bad-option'
  | 'bad-reference';

/** A fault in something the user gave: `code` for programs, `message` (one line) for people. */
export class InputError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'InputError';
    this.code = code;
  }
}

/** Either a value or an InputError. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: InputError };

/** A successful Result. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** A failed Result with the given code and one-line message. */
export function err<T = never>(code: ErrorCode, message: string): Result<T> {
  return { ok: false, error: new InputError(code, message) };
}

/** The value of a Result, or throws its InputError (for callers that report errors at one place). */
export function unwrap<T>(r: Result<T>): T {
  if (r.ok) return r.value;
  throw r.error;
}
