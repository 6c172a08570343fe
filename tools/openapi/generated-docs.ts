/** The parts of the documentation generated from the contract (between `<!-- name:start -->` and `<!-- name:end -->`). */
import { resolve } from 'node:path';
import { errorTable } from '../../schemas/error-codes';

/** The page that holds the error table. */
export const API_CONVENTIONS = resolve(__dirname, '../../../docs/api-conventions.md');

const ERRORS = /(<!-- errors:start -->\n)[\s\S]*?(<!-- errors:end -->)/;

/** The page with its error table made from the contract's error codes. */
export function withErrorTable(page: string): string {
  if (!ERRORS.test(page)) throw new Error('docs/api-conventions.md has no <!-- errors:start --> … <!-- errors:end --> markers');
  return page.replace(ERRORS, (_all, start: string, end: string) => `${start}\n${errorTable()}\n${end}`);
}
