/**
 * `node tools/build/run.mjs <script> [args…]` runs `dist/<script>.js` with `args`, in
 * this very process, after building when the build is missing or older than the
 * sources (tools/build/build.mjs says which). `npm start`, `npm test` and the other
 * npm scripts that run compiled code go through here as `exec node …`, so the
 * process npm waits for and forwards SIGINT/SIGTERM to is the one that stops
 * what it started (a `sh -c 'a && b'` in between would swallow the signal).
 *
 * Under npm, the process also stops itself (as on SIGHUP) when npm goes away
 * without passing a signal on (npm killed, or SIGHUP to npm alone).
 */
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { constants } from 'node:os';
import process from 'node:process';
import { clearInterval, setInterval } from 'node:timers';
import { buildState, buildUnlessStopped, ROOT } from './build.mjs';
const log = (line) => process.stderr.write(`offerops: ${line}\n`);

const [target, ...args] = process.argv.slice(2);
if (!target) {
  log('usage: node tools/build/run.mjs <script under dist/, e.g. tools/stack/start> [args…]');
  process.exit(2);
}

/** npm (our parent under `npm start`) ended: stop as on a hang-up, checked every second. */
function stopWhenNpmEnds() {
  if (!process.env.npm_lifecycle_event) return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    log(`npm (pid ${parent}) ended`);
    process.kill(process.pid, 'SIGHUP');
  }, 1_000);
  timer.unref();
}

/**
 * Builds when needed; a stop signal meanwhile stops the build and exits. Under `npm test` (OFFEROPS_FROZEN_BUILD),
 * whose files are loaded from dist/ while it runs, an existing build is used as it is.
 */
async function buildIfStale() {
  const state = buildState();
  if (state.fresh) return;
  if (process.env.OFFEROPS_FROZEN_BUILD === '1' && state.built) {
    log(`${state.reason}: not built, a test run uses dist/`);
    return;
  }
  const started = Date.now();
  log(`building (${state.reason}) …`);
  let stoppedBy;
  try {
    stoppedBy = await buildUnlessStopped();
  } catch (err) {
    log(`build failed: ${err.message}`);
    process.exit(1);
  }
  if (stoppedBy) process.exit(128 + constants.signals[stoppedBy]);
  log(`built in ${Math.round((Date.now() - started) / 1000)} s`);
}

stopWhenNpmEnds();
await buildIfStale();
const script = join(ROOT, 'dist', `${target}.js`);
// As if started as `node dist/<script>.js args…`; the script runs on load.
process.argv = [process.argv[0], resolve(script), ...args];
createRequire(import.meta.url)(script);
