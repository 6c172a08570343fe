/**
 * `npm run lint`: every check, ESLint (type-checked, the longest by far, on one core) beside the others run one
 * after another, so a 2-core machine spends the time of ESLint alone. Each check's output is printed whole when it
 * ends, its name first; the exit code is 1 when any check failed.
 */
import { spawn } from 'node:child_process';
import process from 'node:process';

const SIDE_BY_SIDE = [['lint:es'], ['lint:deps', 'lint:format', 'lint:openapi', 'lint:md', 'lint:deploy']];

/** Runs `npm run <script>`, its output kept; whether it passed. */
function runScript(script) {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => {
      const passed = code === 0;
      process.stdout.write(`${passed ? '✔' : '✖'} ${script}${passed ? '' : ` (${signal ?? `exit ${code}`})`}\n${output}`);
      resolve(passed);
    });
  });
}

/** Runs `scripts` one after another, on past a failure; whether all passed. */
async function inTurn(scripts) {
  let passed = true;
  for (const script of scripts) passed = (await runScript(script)) && passed;
  return passed;
}

const results = await Promise.all(SIDE_BY_SIDE.map(inTurn));
process.exitCode = results.every(Boolean) ? 0 : 1;
