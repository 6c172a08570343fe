/** The parts of the README generated from the contract (between `<!-- name:start -->` and `<!-- name:end -->`). */
import { resolve } from 'node:path';
import { errorTable } from '../../schemas/error-codes';

export const README = resolve(__dirname, '../../../README.md');

const ERRORS = /(<!-- errors:start -->\n)[\s\S]*?(<!-- errors:end -->)/;

/** The README with its error table made from the contract's error codes. */
export function withErrorTable(readme: string): string {
  if (!ERRORS.test(readme)) throw new Error('README.md has no <!-- errors:start --> … <!-- errors:end --> markers');
  return readme.replace(ERRORS, (_all, start: string, end: string) => `${start}\n${errorTable()}\n${end}`);
}
